import { FileDiff } from 'lucide-react'
import { Card } from '#app/components/ui/card.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { cn } from '#app/lib/cn.ts'
import type { FileChange } from '#server/environments/browse/file-changes.ts'

type Section = { ok: true; data: { changes: FileChange[] } } | { ok: false; message: string } | null

/** The same marks as the chat's "files changed" step. */
export const CHANGE_MARKS = {
  create: { mark: '+', label: 'created', tone: 'text-green-700 dark:text-green-400' },
  change: { mark: '~', label: 'changed', tone: 'text-amber-700 dark:text-amber-400' },
  delete: { mark: '-', label: 'deleted', tone: 'text-red-700 dark:text-red-400' },
} as const

const VIA = { run: 'job run', chat: 'chat', person: 'command box' } as const

/** One changed file: its mark (`+ ~ -`, spelled out for screen readers) and path. */
export function ChangeLine({ type, path }: { type: FileChange['type']; path: string }) {
  const { mark, label, tone } = CHANGE_MARKS[type]
  return (
    <span className="flex min-w-0 items-baseline gap-2">
      <span className={cn('w-3 shrink-0 font-mono font-semibold', tone)} aria-hidden title={label}>
        {mark}
      </span>
      <span className="sr-only">{label}</span>
      <code className="min-w-0 font-mono text-xs break-all">{path}</code>
    </span>
  )
}

/**
 * Recent file changes: what commands run here (the agent in chat or a job run, a person's command
 * box) created, changed or deleted, newest first. A connected machine's are found by polling it.
 */
export function FileChanges({ changes }: { changes: Section }) {
  return (
    <Card className="overflow-hidden">
      <h2 className="flex items-center gap-2 border-b border-stone-200 px-5 py-3 font-semibold dark:border-stone-800">
        <FileDiff className="size-4 text-stone-600 dark:text-stone-400" aria-hidden /> Recent file changes
      </h2>
      {!changes || (changes.ok && changes.data.changes.length === 0) ? (
        <p className="px-5 py-6 text-sm text-stone-600 dark:text-stone-400">
          No file changes yet. Files a command creates, changes or deletes here show up in this list.
        </p>
      ) : !changes.ok ? (
        <p role="alert" className="px-5 py-6 text-sm text-red-700 dark:text-red-400">
          {changes.message}
        </p>
      ) : (
        <ul
          className="divide-y divide-stone-100 text-sm dark:divide-stone-800"
          data-testid="file-changes"
          aria-label="Recent file changes"
        >
          {changes.data.changes.map((c) => (
            <li
              key={c.id}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-5 py-2"
            >
              <ChangeLine type={c.type} path={c.path} />
              <span className="shrink-0 text-xs whitespace-nowrap text-stone-600 dark:text-stone-400">
                {VIA[c.via]}
                {c.actor ? ` · ${c.actor}` : ''} · <RelativeTime value={c.timestamp} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
