import { useEffect, useState } from 'react'
import { formatRelative } from '#app/lib/time.ts'

export type ThreadSummary = { id: string; title: string; updatedAt: string }

type State = { status: 'loading' } | { status: 'error' } | { status: 'ready'; threads: ThreadSummary[] }

/** The person's earlier chats; picking one reopens it. */
export function ThreadList({
  currentId,
  onOpen,
}: {
  currentId: string | null
  onOpen: (id: string) => void
}) {
  const [state, setState] = useState<State>({ status: 'loading' })
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

  if (state.status === 'loading')
    return <p className="p-4 text-sm text-stone-600 dark:text-stone-400">Loading chats…</p>
  if (state.status === 'error') {
    return (
      <p role="alert" className="p-4 text-sm text-red-700 dark:text-red-400">
        Could not load your chats. Try again.
      </p>
    )
  }
  if (state.threads.length === 0)
    return <p className="p-4 text-sm text-stone-600 dark:text-stone-400">No earlier chats yet.</p>
  const now = new Date()
  return (
    <ul className="flex-1 overflow-y-auto p-2" aria-label="Earlier chats">
      {state.threads.map((t) => (
        <li key={t.id}>
          <button
            type="button"
            onClick={() => onOpen(t.id)}
            aria-current={t.id === currentId ? 'true' : undefined}
            className="w-full rounded-md px-3 py-2 text-left text-sm hover:bg-stone-100 focus-visible:bg-stone-100 aria-[current=true]:bg-brand-50 dark:hover:bg-stone-800 dark:aria-[current=true]:bg-brand-900/40"
          >
            <span className="line-clamp-1 font-medium">{t.title}</span>
            <span className="text-xs text-stone-600 dark:text-stone-400">
              {formatRelative(new Date(t.updatedAt), now)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  )
}
