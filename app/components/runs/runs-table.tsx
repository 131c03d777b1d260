import { Link } from 'react-router'
import { DeniedChip } from '#app/components/jobs/job-chips.tsx'
import { Badge } from '#app/components/ui/card.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { describeRunStatus } from '#app/lib/job-status.ts'
import { formatExact } from '#app/lib/time.ts'
import { describeTrigger, formatElapsed, formatUsd } from './format.ts'
import { useElapsed } from './use-elapsed.ts'
import type { RunLike } from './types.ts'

const TH = 'px-2 py-2 text-left text-xs font-medium whitespace-nowrap text-stone-600 dark:text-stone-400'
const TD = 'px-2 py-2 whitespace-nowrap'
// The table gives way by its own width (a container query), not the window's: beside the open chat
// a laptop's table is a phone's. Below 32rem the trigger and the scheduled time go, below 42rem the
// tokens: the run's own page has them, and seven columns take about 36rem (decision 0529).
const WIDE = 'hidden @lg:table-cell'
const TOKENS = 'hidden @2xl:table-cell'
// The start ("47 minutes ago") and the duration ("4 min 32 s so far") may take two lines in a
// narrow table: on one line the four columns left outgrow a phone's width and the cost is cut off.
const WRAPS = 'px-2 py-2 @lg:whitespace-nowrap'
// Amounts (duration, tokens, cost) line up on their last digit, under a header aligned with them.
const NUM = 'text-right tabular-nums'
const TH_NUM = TH.replace('text-left', 'text-right')

/** How long a run took, or while it runs how long it has been going ("4 min 32 s so far"). */
export function RunDuration({ run }: { run: RunLike }) {
  const elapsed = useElapsed(run.startedAt, run.status === 'running')
  if (run.durationMs !== null) return <>{formatElapsed(run.durationMs)}</>
  return elapsed !== null ? <>{formatElapsed(elapsed)} so far</> : <>—</>
}

function tokens(usage: RunLike['usage']): string {
  if (usage.inputTokens === null && usage.outputTokens === null) return '—'
  const n = (v: number | null) => (v ?? 0).toLocaleString('en-GB')
  return `${n(usage.inputTokens)} in · ${n(usage.outputTokens)} out`
}

/** A job's runs as a compact table; each row links to the run's own page. */
export function RunsTable({ jobId, runs, timeZone }: { jobId: string; runs: RunLike[]; timeZone: string }) {
  return (
    <div className="@container -mx-2 overflow-x-auto">
      <table className="w-full text-sm" aria-label="Runs, newest first">
        <thead>
          <tr className="border-b border-stone-200 dark:border-stone-800">
            <th className={TH}>Status</th>
            <th className={`${TH} ${WIDE}`}>Trigger</th>
            <th className={`${TH} ${WIDE}`}>Scheduled</th>
            <th className={TH}>Started</th>
            <th className={TH_NUM}>Duration</th>
            <th className={`${TH_NUM} ${TOKENS}`}>Tokens</th>
            <th className={TH_NUM}>Cost</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100 dark:divide-stone-800">
          {runs.map((run) => {
            const { label, tone } = describeRunStatus(run.status)
            return (
              <tr
                key={run.id}
                data-testid="run-row"
                data-status={run.status}
                className="hover:bg-stone-50 dark:hover:bg-stone-900/60"
                title={run.error ?? run.reason ?? undefined}
              >
                <td className={TD}>
                  <Link
                    to={`/jobs/${encodeURIComponent(jobId)}/runs/${encodeURIComponent(run.id)}`}
                    aria-label={`Transcript of the ${label.toLowerCase()} run from ${formatExact(new Date(run.scheduledFor), { timeZone })}`}
                    className="rounded focus-visible:ring-2 focus-visible:ring-offset-1 focus-visible:outline-none"
                  >
                    <Badge tone={tone}>{label}</Badge>
                  </Link>
                  {run.deniedCommands > 0 ? (
                    <span className="ml-1.5">
                      <DeniedChip count={run.deniedCommands} />
                    </span>
                  ) : null}
                </td>
                <td className={`${TD} ${WIDE}`}>{describeTrigger(run)}</td>
                <td className={`${TD} ${WIDE}`}>
                  <RelativeTime value={run.scheduledFor} timeZone={timeZone} />
                </td>
                <td className={WRAPS}>
                  <RelativeTime value={run.startedAt} timeZone={timeZone} empty="—" />
                </td>
                <td className={`${WRAPS} ${NUM}`}>
                  <RunDuration run={run} />
                </td>
                <td className={`${TD} ${TOKENS} ${NUM}`}>{tokens(run.usage)}</td>
                <td className={`${TD} ${NUM}`}>
                  {run.usage.costUsd === null ? '—' : `≈ ${formatUsd(run.usage.costUsd)}`}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
