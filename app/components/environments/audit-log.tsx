import { ScrollText } from 'lucide-react'
import { Badge, Card } from '#app/components/ui/card.tsx'
import { Pager } from '#app/components/ui/pager.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { TableHead } from '#app/components/ui/table-head.tsx'
import { cn } from '#app/lib/cn.ts'
import type { getAuditPage } from '#server/environments/browse/browse.ts'
import { formatBytes } from './environment-chips.tsx'

type Page = Awaited<ReturnType<typeof getAuditPage>>
type Section = { ok: true; data: Page } | { ok: false; message: string } | null

// Who, the exit code and the time and output show once the table is 42rem wide (its own width,
// a container: beside the open chat a wide window leaves it less), and the command has room.
const wide = 'hidden @2xl:table-cell'
// The outer cells keep the card's 20 px inset, so the table's text lines up with its heading.
const CELL = 'px-3 py-2 first:pl-5 last:pr-5'
// Commands, rules and reasons are written by tenants and may hold a long unbroken path: each of
// them breaks anywhere (which also lowers the table's minimum width), so a phone never scrolls
// the table sideways (decision 0370).
const DECISIONS = {
  allowed: { tone: 'green', label: 'allowed' },
  approved: { tone: 'amber', label: 'approved' },
  denied: { tone: 'red', label: 'denied' },
  // It ran, but the sandbox refused its connections: a refusal, not a success.
  network_blocked: { tone: 'red', label: 'network refused' },
} as const
const COLUMNS = [
  { label: 'When' },
  { label: 'Who', className: wide },
  { label: 'What' },
  { label: 'Decision' },
  { label: 'Exit', className: wide },
  { label: 'Time · output', className: cn(wide, 'text-right') },
]

/** Every command and file write in the environment, by anyone, newest first, a page at a time. */
export function AuditLog({ audit }: { audit: Section }) {
  return (
    <Card className="overflow-hidden">
      <h2 className="flex items-center gap-2 border-b border-stone-200 px-5 py-3 font-semibold dark:border-stone-800">
        <ScrollText className="size-4 text-stone-600 dark:text-stone-400" aria-hidden /> Audit log
      </h2>
      {!audit || (audit.ok && audit.data.entries.length === 0) ? (
        <p className="px-5 py-6 text-sm text-stone-600 dark:text-stone-400">
          Nothing yet. Every command and file write, by the agent or a person, is recorded here.
        </p>
      ) : !audit.ok ? (
        <p role="alert" className="px-5 py-6 text-sm text-red-700 dark:text-red-400">
          {audit.message}
        </p>
      ) : (
        <div className="@container overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="audit-log">
            <caption className="sr-only">Audit log ({audit.data.total} entries)</caption>
            <TableHead columns={COLUMNS} cell={CELL} />
            <tbody className="divide-y divide-stone-100 dark:divide-stone-800">
              {audit.data.entries.map((e) => (
                <tr key={e.id} className="align-top">
                  <td className={cn(CELL, 'whitespace-nowrap')}>
                    <RelativeTime value={e.at} />
                  </td>
                  <td className={cn(CELL, wide)}>
                    {e.actor?.name ?? 'someone removed'}
                    {e.runId ? (
                      <span className="block text-xs text-stone-600 dark:text-stone-400">job run</span>
                    ) : null}
                    {e.threadId ? (
                      <span className="block text-xs text-stone-600 dark:text-stone-400">chat</span>
                    ) : null}
                  </td>
                  <td className={cn(CELL, 'max-w-md')}>
                    <span className="mr-1.5 text-xs text-stone-600 dark:text-stone-400">
                      {e.kind === 'write' ? 'wrote' : '$'}
                    </span>
                    <code className="font-mono text-xs [overflow-wrap:anywhere]">{e.subject}</code>
                    {e.reason ? (
                      <p className="mt-1 text-xs text-stone-600 dark:text-stone-400 [overflow-wrap:anywhere]">
                        {e.reason}
                      </p>
                    ) : null}
                  </td>
                  <td className={CELL}>
                    <Badge tone={DECISIONS[e.decision].tone}>{DECISIONS[e.decision].label}</Badge>
                    {e.rule ? (
                      <span className="block pt-1 font-mono text-xs text-stone-600 dark:text-stone-400 [overflow-wrap:anywhere]">
                        {e.rule}
                      </span>
                    ) : null}
                  </td>
                  <td className={cn(CELL, 'tabular-nums', wide)}>{e.exitCode ?? '—'}</td>
                  <td className={cn(CELL, 'text-right whitespace-nowrap tabular-nums', wide)}>
                    {e.durationMs !== null ? `${e.durationMs} ms` : '—'}
                    {e.bytesOut !== null ? ` · ${formatBytes(e.bytesOut)}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="px-5 pb-4">
            <Pager
              shown={audit.data.entries.length}
              total={audit.data.total}
              nextCursor={audit.data.nextCursor}
              noun="entries"
            />
          </div>
        </div>
      )}
    </Card>
  )
}
