// First: zod must be told about the CSP before the AI SDK (which parses with zod) is used.
import '#app/lib/zod-csp.ts'
import { useChat } from '@ai-sdk/react'
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai'
import { ArrowUp, History, MessageSquarePlus, RotateCcw, Square } from 'lucide-react'
import { Fragment, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { Link, useRevalidator } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { useFocusAfterRemoval } from '#app/lib/use-focus-after-removal.ts'
import { asStored, textOf } from './joined-messages.ts'
import { MessageParts } from './message-parts.tsx'
import {
  readChatError,
  readRetryNotice,
  type ChatMetadata,
  type RetryNotice,
  type ThreadPage,
  type ToolPart,
} from './types.ts'

type ChatMessage = UIMessage<ChatMetadata>

/**
 * The conversation's scrolling part, a Tab stop so it scrolls from the keyboard when its messages
 * hold nothing focusable; the focus goes there when the "Earlier messages" button goes. It is not
 * a live region itself: only the messages of this session are, so a screen reader reads what is
 * new and not a page of earlier messages added above (decision 0467).
 */
const CHAT_LOG = 'chat-log'

/** True when a reply changed jobs (created, updated or deleted one), so pages should reload their data. */
function changedJobs(message: ChatMessage): boolean {
  return message.parts.some((p) => {
    const part = p as ToolPart
    const output = part.output as { ok?: boolean; action?: string } | undefined
    return part.type === 'tool-manage-jobs' && output?.ok === true && output.action !== 'list'
  })
}

/** True when the message asks the person to confirm a call: its answer continues it here. */
function awaitsAnswer(message: ChatMessage | undefined): boolean {
  return (
    message?.role === 'assistant' && message.parts.some((p) => (p as ToolPart).state === 'approval-requested')
  )
}

function threadIdOf(messages: ChatMessage[]): string | undefined {
  return messages.findLast((m) => m.metadata?.threadId)?.metadata?.threadId
}

/**
 * The oldest message the model sees (decision 0469): the latest reply streamed here says where its
 * turn began; before one, the thread's page says where the next turn begins. Null: it sees them all.
 */
function historyStartOf(messages: ChatMessage[], opened: string | null): string | null {
  const latest = messages.findLast((m) => m.metadata?.historyStart !== undefined)
  return latest ? (latest.metadata!.historyStart ?? null) : opened
}

/**
 * One conversation: the messages, the composer, and the wiring to the chat endpoint. The server
 * keeps the thread, so each request carries only the thread id and the newest message.
 */
export function ChatSession({
  sessionKey,
  threadId,
  initialMessages,
  earlierBefore,
  historyStart: openedHistoryStart,
  onThread,
  onNewChat,
  onHistory,
  inputRef,
}: {
  sessionKey: string
  threadId: string | null
  initialMessages: ChatMessage[]
  /** The earliest loaded message when the thread has earlier ones, to read the page before it. */
  earlierBefore: string | null
  /** The oldest message the next turn sends the model when it leaves earlier ones out. */
  historyStart: string | null
  onThread: (id: string) => void
  /** Starts a new conversation (the way on when this thread is full). */
  onNewChat: () => void
  /** Shows the person's earlier chats (the way on when they have as many as they may). */
  onHistory: () => void
  inputRef: React.RefObject<HTMLTextAreaElement | null>
}) {
  const revalidator = useRevalidator()
  const revalidate = useRef(revalidator.revalidate)
  useEffect(() => {
    revalidate.current = revalidator.revalidate
  })
  // Replies carry their thread id as metadata (stored ones too), so the id is read from the messages;
  // a Retry drops the failed reply that carried it, so it passes the id along itself.
  const [transport] = useState(
    () =>
      new DefaultChatTransport<ChatMessage>({
        api: '/_agent-native/agent/chat',
        // A regenerate is the Retry after a failed turn: the server answers the stored message
        // again rather than storing it twice.
        prepareSendMessagesRequest: ({ messages, trigger, body }) => ({
          body: {
            threadId:
              threadIdOf(messages) ?? (body as { threadId?: string })?.threadId ?? threadId ?? undefined,
            message: messages.at(-1),
            ...(trigger === 'regenerate-message' ? { retry: true } : {}),
          },
        }),
      }),
  )
  // The model call failed and the server waits to retry it (a 529 "overloaded", a 429, …).
  const [retrying, setRetrying] = useState<RetryNotice | null>(null)
  const {
    messages,
    setMessages,
    sendMessage,
    regenerate,
    status,
    error,
    stop,
    addToolApprovalResponse,
    clearError,
  } = useChat<ChatMessage>({
    id: sessionKey,
    messages: initialMessages,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onData: (part) => {
      const notice = readRetryNotice(part)
      if (notice !== undefined) setRetrying(notice)
    },
    onFinish: ({ message }) => {
      setRetrying(null)
      if (changedJobs(message)) void revalidate.current()
    },
    onError: () => setRetrying(null),
  })
  const [text, setText] = useState('')
  const busy = status === 'submitted' || status === 'streaming'
  const end = useRef<HTMLDivElement>(null)
  const log = useRef<HTMLDivElement>(null)
  /** The log's distance from its end when an earlier page was asked for, kept while it lands above. */
  const keepFromEnd = useRef<number | null>(null)

  const current = threadIdOf(messages)
  useEffect(() => {
    if (current) onThread(current)
  }, [current, onThread])
  // Follows the newest message, not earlier pages loaded above it.
  const newest = messages.at(-1)
  useEffect(() => {
    keepFromEnd.current = null
    end.current?.scrollIntoView({ block: 'end' })
  }, [newest])
  // The panel loads this part when it first opens, after its own focus effect ran: the composer
  // takes the focus when it appears in an open panel.
  useEffect(() => {
    const box = inputRef.current
    if (box && box.offsetParent !== null) box.focus()
  }, [inputRef])

  // Stops the turn on the server too (its loop and its commands), not only this browser's stream.
  function halt() {
    void stop()
    const id = current ?? threadId
    if (id) {
      void fetch(`/_agent-native/agent/threads/${encodeURIComponent(id)}/stop`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      }).catch(() => {})
    }
  }

  function send() {
    const value = text.trim()
    if (!value || busy) return
    clearError()
    void sendMessage({ text: value })
    setText('')
  }

  // A long thread opens at its latest page; earlier pages are read on demand, newest first.
  const [before, setBefore] = useState(earlierBefore)
  const [earlierError, setEarlierError] = useState(false)
  /**
   * How many messages, from the first, were stored before this session: shown, never announced.
   * A reply waiting for a confirmation is not one of them, since answering it continues it here.
   */
  const [stored, setStored] = useState(
    initialMessages.length - (awaitsAnswer(initialMessages.at(-1)) ? 1 : 0),
  )
  /** What the last earlier page added, said once by a status line instead of the page itself. */
  const [earlierNote, setEarlierNote] = useState<{ text: string; n: number } | null>(null)
  async function loadEarlier() {
    const id = current ?? threadId
    if (!id || !before) return
    const url = `/_agent-native/agent/threads/${encodeURIComponent(id)}?before=${encodeURIComponent(before)}`
    const res = await fetch(url).catch(() => null)
    setEarlierError(!res?.ok)
    if (!res?.ok) return
    const page = (await res.json()) as ThreadPage
    // Messages added above would push what is in view down (a browser keeps the view in place
    // only when it is not scrolled to the top, where the button is): keep the distance to the end.
    if (log.current) keepFromEnd.current = log.current.scrollHeight - log.current.scrollTop
    setMessages((now) => [...page.messages, ...now])
    setStored((n) => n + page.messages.length)
    setBefore(page.nextBefore)
    const count = page.messages.length
    setEarlierNote((note) => ({
      text: `Loaded ${count} earlier ${count === 1 ? 'message' : 'messages'}${page.nextBefore ? '' : ', back to the start of this chat'}`,
      n: (note?.n ?? 0) + 1,
    }))
  }

  useLayoutEffect(() => {
    const box = log.current
    if (box && keepFromEnd.current !== null) box.scrollTop = box.scrollHeight - keepFromEnd.current
  }, [messages, before])

  function retry() {
    clearError()
    void regenerate({ body: { threadId: current ?? threadId ?? undefined } })
  }

  const failure = error ? readChatError(error) : null
  const historyStart = historyStartOf(messages, openedHistoryStart)
  // Stored before this session, or this session's (announced); a message joined across the two is
  // this session's, as it keeps the later id.
  const storedIds = new Set(messages.slice(0, stored).map((m) => m.id))
  const shown = asStored(messages)
  const show = (m: ChatMessage) => (
    <Fragment key={m.id}>
      {m.id === historyStart ? <HistoryStart /> : null}
      {m.role === 'user' ? (
        <div
          className="ml-8 rounded-lg bg-brand-50 px-3 py-2 whitespace-pre-wrap dark:bg-brand-900/40"
          data-testid="person-message"
        >
          {textOf(m)}
        </div>
      ) : (
        <div data-testid="assistant-message">
          <MessageParts
            parts={m.parts}
            onAnswer={busy ? undefined : (id, approved) => addToolApprovalResponse({ id, approved })}
          />
        </div>
      )}
    </Fragment>
  )
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div
        ref={log}
        id={CHAT_LOG}
        tabIndex={0}
        className="flex-1 space-y-4 overflow-y-auto px-4 py-4 text-sm"
        aria-label="Conversation"
        data-testid="chat-log"
      >
        {before ? <EarlierMessages failed={earlierError} onLoad={() => void loadEarlier()} /> : null}
        {messages.length === 0 ? (
          <p className="text-stone-600 dark:text-stone-400">
            Ask for a job in plain words, e.g. “every weekday at 7, summarise yesterday’s sign-ups”.
          </p>
        ) : null}
        <div className="space-y-4 empty:hidden">{shown.filter((m) => storedIds.has(m.id)).map(show)}</div>
        {/* The session's messages: a log announces what is added to it (the person's message, the
            reply); busy while the reply streams, so it is read once whole rather than word by word. */}
        <div role="log" aria-busy={status === 'streaming'} className="space-y-4">
          {shown.filter((m) => !storedIds.has(m.id)).map(show)}
        </div>
        {busy && retrying ? (
          <p role="status" className="text-amber-700 dark:text-amber-400" data-testid="chat-retrying">
            {retrying.status === 529 || retrying.status === 503
              ? `The model is overloaded (${retrying.status})`
              : `The model call failed${retrying.status ? ` (${retrying.status})` : ''}`}
            : retrying in {Math.round(retrying.delayMs / 1000)} s (try {retrying.attempt} of{' '}
            {retrying.attempts})…
          </p>
        ) : status === 'submitted' ? (
          <p className="text-stone-600 dark:text-stone-400">Thinking…</p>
        ) : null}
        {failure ? (
          <div
            role="alert"
            className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
          >
            {failure.message}
            {failure.code === 'quota_exceeded' ? (
              <div className="mt-2">
                <Button type="button" variant="secondary" size="sm" onClick={onNewChat}>
                  <MessageSquarePlus className="size-3.5" aria-hidden /> New chat
                </Button>
              </div>
            ) : failure.code === 'too_many_chats' ? (
              <div className="mt-2">
                <Button type="button" variant="secondary" size="sm" onClick={onHistory}>
                  <History className="size-3.5" aria-hidden /> History
                </Button>
              </div>
            ) : failure.code === 'no_model_key' || failure.code === 'model_key_refused' ? (
              <>
                {' '}
                <Link to="/settings/models" className="font-medium underline">
                  Open Settings → Models
                </Link>
              </>
            ) : messages.some((m) => m.role === 'user') ? (
              <div className="mt-2">
                <Button type="button" variant="secondary" size="sm" onClick={retry}>
                  <RotateCcw className="size-3.5" aria-hidden /> Retry
                </Button>
              </div>
            ) : null}
          </div>
        ) : null}
        <div ref={end} />
      </div>
      <p role="status" className="sr-only" data-testid="chat-earlier-status">
        {earlierNote ? <span key={earlierNote.n}>{earlierNote.text}</span> : null}
      </p>
      <form
        className="border-t border-stone-200 p-3 dark:border-stone-800"
        onSubmit={(e) => {
          e.preventDefault()
          send()
        }}
      >
        <label htmlFor="chat-input" className="sr-only">
          Message the agent
        </label>
        <div className="flex items-end gap-2">
          <textarea
            id="chat-input"
            ref={inputRef}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault()
                send()
              }
            }}
            rows={2}
            placeholder="Ask the agent… (Enter to send, Shift+Enter for a new line)"
            className="block max-h-40 min-h-[2.5rem] flex-1 resize-y rounded-md border border-stone-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-stone-700 dark:bg-stone-900"
          />
          {busy ? (
            <Button type="button" variant="secondary" onClick={halt} aria-label="Stop">
              <Square className="size-4" aria-hidden />
            </Button>
          ) : (
            <Button type="submit" aria-label="Send" disabled={!text.trim()}>
              <ArrowUp className="size-4" aria-hidden />
            </Button>
          )}
        </div>
      </form>
    </div>
  )
}

/** Reads the page before the earliest loaded message; it goes when the thread's first is loaded. */
function EarlierMessages({ failed, onLoad }: { failed: boolean; onLoad: () => void }) {
  // When the last page lands the button goes: the focus moves to the log, not to the page.
  const part = useFocusAfterRemoval<HTMLDivElement>(CHAT_LOG)
  return (
    <div ref={part} className="text-center">
      <Button type="button" variant="ghost" size="sm" onClick={onLoad}>
        Earlier messages
      </Button>
      {failed ? (
        <p role="alert" className="text-red-700 dark:text-red-400">
          Could not load earlier messages. Try again.
        </p>
      ) : null}
    </div>
  )
}

/**
 * Marks where what the model sees begins: plain text, read in order by screen readers, with the
 * rules on either side only drawn.
 */
function HistoryStart() {
  return (
    <p
      className="flex items-center gap-2 text-xs text-stone-600 dark:text-stone-400"
      data-testid="history-start"
    >
      <span className="h-px flex-1 bg-stone-300 dark:bg-stone-700" aria-hidden />
      The assistant no longer sees the messages above
      <span className="h-px flex-1 bg-stone-300 dark:bg-stone-700" aria-hidden />
    </p>
  )
}
