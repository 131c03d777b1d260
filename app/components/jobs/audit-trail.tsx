import { ScrollText } from 'lucide-react'
import { Card } from '#app/components/ui/card.tsx'
import type { AuditEntry } from '#app/lib/job-types.ts'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'

const VERBS: Record<string, string> = {
  create: 'created the job',
  update: 'changed',
  transfer: 'transferred the job',
  transfer_offer: 'offered the job to a member',
  transfer_decline: 'ended the offer of the job',
  enable: 'resumed the job',
  disable: 'paused the job',
  delete: 'deleted the job',
}

type Labels = Record<string, string>

/**
 * Who changed what, and when: newest first, every field with its old and new value, named as the
 * job-field registry names it (`labels`, sent by the loader).
 */
export function AuditTrail({ entries, labels }: { entries: readonly AuditEntry[]; labels: Labels }) {
  const newestFirst = [...entries].sort((a, b) => new Date(b.at).getTime() - new Date(a.at).getTime())
  return (
    <Card className="p-5">
      <h2 className="flex items-center gap-2 font-semibold">
        <ScrollText className="size-4 text-stone-600 dark:text-stone-400" aria-hidden /> Audit trail
      </h2>
      {newestFirst.length === 0 ? (
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">No changes recorded.</p>
      ) : (
        <ol
          className="mt-4 space-y-4 border-l border-stone-200 pl-5 dark:border-stone-800"
          data-testid="audit-trail"
        >
          {newestFirst.map((entry) => (
            <AuditItem key={entry.id} entry={entry} labels={labels} />
          ))}
        </ol>
      )}
    </Card>
  )
}

function AuditItem({ entry, labels }: { entry: AuditEntry; labels: Labels }) {
  const changes = Object.entries(entry.changes ?? {})
  const verb = VERBS[entry.action] ?? entry.action
  const fields = entry.action === 'update' ? changes.map(([f]) => labels[f] ?? f).join(', ') : ''
  return (
    <li className="relative text-sm">
      <span
        className="absolute top-1.5 -left-[25px] size-2.5 rounded-full bg-stone-300 ring-4 ring-white dark:bg-stone-600 dark:ring-stone-900"
        aria-hidden
      />
      <p>
        <span className="font-medium">{entry.actor?.name ?? 'The system'}</span> {verb}
        {fields ? <> {fields}</> : null}
        <span className="text-stone-600 dark:text-stone-400"> · </span>
        <span className="text-stone-600 dark:text-stone-400">
          <RelativeTime value={entry.at} />
        </span>
      </p>
      {entry.note ? <p className="mt-0.5 text-stone-600 italic dark:text-stone-400">{entry.note}</p> : null}
      {changes.length > 0 && entry.action !== 'enable' && entry.action !== 'disable' ? (
        entry.action === 'create' ? (
          <details className="mt-1">
            <summary className="cursor-pointer text-xs text-stone-600 dark:text-stone-400">
              Initial settings
            </summary>
            <ChangeList changes={changes} labels={labels} created />
          </details>
        ) : (
          <ChangeList changes={changes} labels={labels} />
        )
      ) : null}
    </li>
  )
}

function ChangeList({
  changes,
  labels,
  created,
}: {
  changes: [string, { from: unknown; to: unknown }][]
  labels: Labels
  created?: boolean
}) {
  return (
    <dl className="mt-1.5 space-y-1 text-xs">
      {changes.map(([field, { from, to }]) => (
        <div key={field} className="flex flex-wrap items-baseline gap-x-2">
          <dt className="w-20 shrink-0 text-stone-600 dark:text-stone-400">{labels[field] ?? field}</dt>
          <dd className="min-w-0 flex-1">
            {isLong(from) || isLong(to) ? (
              <LongChange from={from} to={to} created={created} />
            ) : created ? (
              <Value value={to} />
            ) : (
              <>
                <Value value={from} /> <span className="text-stone-600 dark:text-stone-400">→</span>{' '}
                <Value value={to} />
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  )
}

const isLong = (v: unknown) => typeof v === 'string' && (v.length > 60 || v.includes('\n'))

function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined)
    return <span className="text-stone-600 dark:text-stone-400">—</span>
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  // Wraps between words, and inside one only when it is longer than the line.
  return (
    <code className="rounded bg-stone-100 px-1 py-0.5 [overflow-wrap:anywhere] dark:bg-stone-800">
      {text}
    </code>
  )
}

function LongChange({ from, to, created }: { from: unknown; to: unknown; created?: boolean }) {
  const pre = 'mt-1 max-h-40 overflow-auto rounded bg-stone-100 p-2 whitespace-pre-wrap dark:bg-stone-800'
  return (
    <details>
      <summary className="cursor-pointer text-stone-600 dark:text-stone-300">
        {created ? 'show' : 'show before and after'}
      </summary>
      {!created ? (
        <>
          <p className="mt-1 text-stone-600 dark:text-stone-400">Before</p>
          <pre className={pre}>{String(from ?? '')}</pre>
          <p className="mt-1 text-stone-600 dark:text-stone-400">After</p>
        </>
      ) : null}
      <pre className={pre}>{String(to ?? '')}</pre>
    </details>
  )
}
