import type { UIMessage } from 'ai'
import { History, MessageSquarePlus, Sparkles, X } from 'lucide-react'
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import { Button } from '#app/components/ui/button.tsx'
import { cn } from '#app/lib/cn.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import type * as SessionModule from './chat-session.tsx'
import type { ChatMetadata, ThreadPage } from './types.ts'

/**
 * The conversation and the history list load when the panel is first opened (or the toggle is
 * pointed at), not with every page: they bring the AI SDK, zod and the Markdown renderer, the
 * largest part of a page's JavaScript, which a page that never opens the chat does not need.
 */
let sessionModule: Promise<typeof SessionModule> | undefined
const loadSession = () => (sessionModule ??= import('./chat-session.tsx'))
const ChatSession = lazy(() => loadSession().then((m) => ({ default: m.ChatSession })))
const ThreadList = lazy(() => import('./thread-list.tsx').then((m) => ({ default: m.ThreadList })))

type Session = {
  key: string
  threadId: string | null
  messages: UIMessage<ChatMetadata>[]
  /** The earliest loaded message when the thread has earlier ones (its page's `nextBefore`). */
  earlierBefore: string | null
  /** The oldest message the next turn sends the model when it leaves earlier ones out. */
  historyStart: string | null
}

const freshSession = (): Session => ({
  key: `new-${Date.now()}`,
  threadId: null,
  messages: [],
  earlierBefore: null,
  historyStart: null,
})

/** Whether the panel is open, shared by the header's toggle and the panel itself. */
type ChatState = {
  open: boolean
  setOpen: (open: boolean) => void
  /** Closes the panel and gives the focus back to the toggle. */
  close: () => void
  toggle: React.RefObject<HTMLButtonElement | null>
}

const ChatContext = createContext<ChatState | null>(null)

function useChat(): ChatState {
  const state = useContext(ChatContext)
  if (!state) throw new Error('ChatToggle and ChatPanel need a ChatProvider around them')
  return state
}

/**
 * The agent chat in the app layout: the toggle sits in the page header (so it never covers the
 * page), the panel after the page. Ctrl/⌘+J toggles it, Escape closes it and focus returns to the
 * toggle. Earlier chats can be reopened from History.
 */
export function ChatProvider({ children }: { children: React.ReactNode }) {
  const [open, setOpen] = useState(false)
  const toggle = useRef<HTMLButtonElement>(null)
  // Wide screens make room for the open panel (app.css) instead of covering the page's columns.
  useEffect(() => {
    document.documentElement.toggleAttribute('data-chat-open', open)
    return () => document.documentElement.removeAttribute('data-chat-open')
  }, [open])
  const close = useCallback(() => {
    setOpen(false)
    toggle.current?.focus()
  }, [])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'j') {
        e.preventDefault()
        setOpen((was) => {
          if (was) toggle.current?.focus()
          return !was
        })
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  const state = useMemo(() => ({ open, setOpen, close, toggle }), [open, close])
  return <ChatContext.Provider value={state}>{children}</ChatContext.Provider>
}

export function ChatToggle() {
  const { open, setOpen, close, toggle } = useChat()
  // The shortcut works once the page is interactive; tests can tell by data-ready.
  const ready = useHydrated()
  return (
    <Button
      ref={toggle}
      onClick={() => (open ? close() : setOpen(true))}
      aria-expanded={open}
      aria-controls="agent-chat"
      aria-keyshortcuts="Control+J Meta+J"
      data-ready={ready || undefined}
      onPointerEnter={() => void loadSession()}
      onFocus={() => void loadSession()}
      title="Ask the agent (Ctrl+J or ⌘J)"
      size="sm"
      className="rounded-full"
    >
      <Sparkles className="size-4" aria-hidden /> Ask the agent
    </Button>
  )
}

export function ChatPanel() {
  const { open, close } = useChat()
  const [view, setView] = useState<'chat' | 'history'>('chat')
  const [session, setSession] = useState<Session>(freshSession)
  const [loadError, setLoadError] = useState<string | null>(null)
  const input = useRef<HTMLTextAreaElement>(null)
  const panel = useRef<HTMLElement>(null)
  // The conversation is mounted from the first opening on (and kept while the panel is closed).
  const [opened, setOpened] = useState(open)
  if (open && !opened) setOpened(true)

  useEffect(() => {
    if (open && view === 'chat') input.current?.focus()
  }, [open, view, session.key])

  const onThread = useCallback((id: string) => setSession((s) => ({ ...s, threadId: id })), [])

  function newChat() {
    setSession(freshSession())
    setView('chat')
  }

  async function openThread(id: string) {
    setLoadError(null)
    const res = await fetch(`/_agent-native/agent/threads/${encodeURIComponent(id)}`).catch(() => null)
    if (!res?.ok) {
      setLoadError('Could not open that chat. Try again.')
      return
    }
    const body = (await res.json()) as ThreadPage
    setSession({
      key: `${id}-${Date.now()}`,
      threadId: id,
      messages: body.messages,
      earlierBefore: body.nextBefore,
      historyStart: body.historyStart,
    })
    setView('chat')
  }

  return (
    <aside
      id="agent-chat"
      ref={panel}
      aria-label="Agent chat"
      hidden={!open}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation()
          close()
        }
      }}
      className="fixed inset-y-0 right-0 z-40 flex w-full flex-col border-l border-stone-200 bg-white shadow-2xl sm:w-[28rem] dark:border-stone-800 dark:bg-stone-950 [&[hidden]]:hidden"
    >
      <header className="flex items-center gap-1 border-b border-stone-200 px-3 py-2 dark:border-stone-800">
        <h2 className="flex flex-1 items-center gap-2 text-sm font-semibold">
          <Sparkles className="size-4 text-brand-600" aria-hidden /> Agent
        </h2>
        <Button variant="ghost" size="sm" onClick={newChat}>
          <MessageSquarePlus className="size-4" aria-hidden /> New chat
        </Button>
        <Button
          variant="ghost"
          size="sm"
          aria-pressed={view === 'history'}
          onClick={() => setView((v) => (v === 'history' ? 'chat' : 'history'))}
        >
          <History className="size-4" aria-hidden /> History
        </Button>
        <Button variant="ghost" size="sm" onClick={close} aria-label="Close chat (Escape)">
          <X className="size-4" aria-hidden />
        </Button>
      </header>
      {loadError ? (
        <p role="alert" className="px-4 pt-3 text-sm text-red-700 dark:text-red-400">
          {loadError}
        </p>
      ) : null}
      {open && view === 'history' ? (
        <Suspense fallback={<Loading />}>
          <ThreadList
            currentId={session.threadId}
            onOpen={(id) => void openThread(id)}
            // The open chat deleted: the conversation starts afresh, as New chat would.
            onDeleted={(id) => setSession((s) => (s.threadId === id ? freshSession() : s))}
          />
        </Suspense>
      ) : null}
      <div className={cn('flex min-h-0 flex-1 flex-col', view === 'history' && 'hidden')}>
        {opened ? (
          <Suspense fallback={<Loading />}>
            <ChatSession
              key={session.key}
              sessionKey={session.key}
              threadId={session.threadId}
              initialMessages={session.messages}
              earlierBefore={session.earlierBefore}
              historyStart={session.historyStart}
              onNewChat={newChat}
              onHistory={() => setView('history')}
              onThread={onThread}
              inputRef={input}
            />
          </Suspense>
        ) : null}
      </div>
    </aside>
  )
}

function Loading() {
  return (
    <p role="status" className="px-4 py-4 text-sm text-stone-600 dark:text-stone-400">
      Loading…
    </p>
  )
}
