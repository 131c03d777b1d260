import { Trash2 } from 'lucide-react'
import { AlertDialog } from 'radix-ui'
import { useEffect, useRef, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#app/components/ui/button.tsx'
import { ConfirmText } from '#app/components/ui/confirm-delete-dialog.tsx'
import { dialogOverlayClass, dialogPanelClass } from '#app/components/ui/dialog-frame.ts'
import { formatRelative } from '#app/lib/time.ts'

export type ThreadSummary = { id: string; title: string; updatedAt: string }

type State = { status: 'loading' } | { status: 'error' } | { status: 'ready'; threads: ThreadSummary[] }

/**
 * The person's earlier chats; picking one reopens it, and each can be deleted after a confirmation
 * (decision 0487). Once a chat is deleted its row is gone, so the focus moves to the list.
 */
export function ThreadList({
  currentId,
  onOpen,
  onDeleted,
}: {
  currentId: string | null
  onOpen: (id: string) => void
  onDeleted: (id: string) => void
}) {
  const [state, setState] = useState<State>({ status: 'loading' })
  const list = useRef<HTMLDivElement>(null)
  useEffect(() => {
    let live = true
    fetch('/_agent-native/agent/threads')
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
      .then(
        (body: { threads: ThreadSummary[] }) => live && setState({ status: 'ready', threads: body.threads }),
      )
      .catch(() => live && setState({ status: 'error' }))
    return () => {
      live = false
    }
  }, [])

  function removed(id: string) {
    setState((s) => (s.status === 'ready' ? { ...s, threads: s.threads.filter((t) => t.id !== id) } : s))
    onDeleted(id)
  }

  if (state.status === 'loading')
    return <p className="p-4 text-sm text-stone-600 dark:text-stone-400">Loading chats…</p>
  if (state.status === 'error') {
    return (
      <p role="alert" className="p-4 text-sm text-red-700 dark:text-red-400">
        Could not load your chats. Try again.
      </p>
    )
  }
  const now = new Date()
  return (
    <div
      ref={list}
      tabIndex={-1}
      aria-label="Chat history"
      className="flex min-h-0 flex-1 flex-col outline-none"
    >
      {state.threads.length === 0 ? (
        <p className="p-4 text-sm text-stone-600 dark:text-stone-400">No earlier chats yet.</p>
      ) : (
        <ul className="flex-1 overflow-y-auto p-2" aria-label="Earlier chats">
          {state.threads.map((t) => (
            <li key={t.id} className="flex items-center gap-1">
              <button
                type="button"
                onClick={() => onOpen(t.id)}
                aria-current={t.id === currentId ? 'true' : undefined}
                className="min-w-0 flex-1 rounded-md px-3 py-2 text-left text-sm hover:bg-stone-100 focus-visible:bg-stone-100 aria-[current=true]:bg-brand-50 dark:hover:bg-stone-800 dark:aria-[current=true]:bg-brand-900/40"
              >
                <span className="line-clamp-1 font-medium">{t.title}</span>
                <span className="text-xs text-stone-600 dark:text-stone-400">
                  {formatRelative(new Date(t.updatedAt), now)}
                </span>
              </button>
              <DeleteThread thread={t} onRemoved={removed} focusAfter={list} />
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** A chat's Delete button and its confirmation; the error of a refused delete shows in the dialog. */
function DeleteThread({
  thread,
  onRemoved,
  focusAfter,
}: {
  thread: ThreadSummary
  onRemoved: (id: string) => void
  focusAfter: React.RefObject<HTMLElement | null>
}) {
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const deleted = useRef(false)

  async function confirm() {
    setBusy(true)
    setError(null)
    const res = await fetch(`/_agent-native/agent/threads/${encodeURIComponent(thread.id)}`, {
      method: 'DELETE',
    }).catch(() => null)
    setBusy(false)
    // Already gone (deleted in another tab): what the person asked for.
    if (res && (res.ok || res.status === 404)) {
      deleted.current = true
      setOpen(false)
      toast.success(`Deleted “${thread.title}”`)
      return
    }
    const body = (await res?.json().catch(() => null)) as { error?: { message?: string } } | null
    setError(body?.error?.message ?? 'Could not delete that chat. Try again.')
  }

  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        if (next) setError(null)
      }}
    >
      <AlertDialog.Trigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Delete “${thread.title}”`} title="Delete this chat">
          <Trash2 className="size-4" aria-hidden />
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialogOverlayClass} />
        <AlertDialog.Content
          className={dialogPanelClass}
          // Escape closes this dialog, not the chat panel behind it (a portal's keys reach the panel).
          onKeyDown={(e) => e.key === 'Escape' && e.stopPropagation()}
          onCloseAutoFocus={(event) => {
            if (!deleted.current) return
            event.preventDefault()
            onRemoved(thread.id)
            focusAfter.current?.focus()
          }}
        >
          <ConfirmText
            title="Delete this chat?"
            description={`“${thread.title}” and all its messages are deleted for good. A reply still being written stops.`}
            error={error}
          />
          <div className="mt-6 flex justify-end gap-3">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary">Keep it</Button>
            </AlertDialog.Cancel>
            <Button variant="danger" busy={busy} busyLabel="Deleting…" onClick={() => void confirm()}>
              <Trash2 className="size-4" aria-hidden /> Delete chat
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}
