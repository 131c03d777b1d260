import { useRef } from 'react'
import { Card } from '#app/components/ui/card.tsx'
import { cn } from '#app/lib/cn.ts'
import type { JobRow as JobRowData } from '#app/lib/job-types.ts'
import type { JobListParams } from '#app/lib/job-list-params.ts'
import { EnableSwitch } from './enable-switch.tsx'
import { DeniedChip, PausedChip, RunStatusChip, ScopeBadge } from './job-chips.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { JobRowMenu } from './job-row-menu.tsx'
import { RunDots, type RecentRun } from './run-dots.tsx'
import { SortHeader } from './sort-header.tsx'
import { useListLinks } from '#app/lib/use-list-links.ts'

type Props = {
  jobs: JobRowData[]
  recentRuns: Record<string, RecentRun[]>
  params: JobListParams
  meId: string
  busy: boolean
}

const th = 'px-4 py-2.5 font-medium whitespace-nowrap'
// Columns give way by the table's own width (a container query), not the screen's: the open chat
// panel narrows the page as much as a small screen does. The name, the switch and the menu always
// stay; what a hidden column said moves under the name.
const whenNext = 'hidden @2xl:table-cell' // next run and last run, from 42rem
const whenSchedule = 'hidden @4xl:table-cell' // from 56rem
const whenOwner = 'hidden @5xl:table-cell' // from 64rem

/** The jobs the caller can see, one row each, with the state that matters at a glance. */
export function JobsTable({ jobs, recentRuns, params, meId, busy }: Props) {
  // The rows' name links navigate in the app through one listener on the table, not a Link each.
  const table = useRef<HTMLTableElement>(null)
  useListLinks(table)
  return (
    <Card
      className={cn('@container overflow-x-auto transition-opacity', busy && 'opacity-60')}
      aria-busy={busy}
      data-testid="jobs-table"
    >
      <table ref={table} className="w-full text-left text-sm">
        <caption className="sr-only">Jobs ({jobs.length})</caption>
        <thead className="border-b border-stone-200 text-xs text-stone-500 uppercase dark:border-stone-800">
          <tr>
            <SortHeader label="Name" column="name" params={params} />
            <th scope="col" className={cn(th, whenSchedule)}>
              Schedule
            </th>
            <SortHeader label="Next run" column="next" params={params} className={whenNext} />
            <SortHeader label="Last run" column="last" params={params} className={whenNext} />
            <th scope="col" className={cn(th, whenOwner)}>
              Owner
            </th>
            <th scope="col" className={cn(th, 'text-right')}>
              Enabled
            </th>
            <th scope="col" className={th}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100 dark:divide-stone-800">
          {jobs.map((job) => (
            <JobRow
              key={job.id}
              job={job}
              recent={recentRuns[job.id] ?? []}
              isMine={job.createdBy.id === meId}
            />
          ))}
        </tbody>
      </table>
    </Card>
  )
}

function JobRow({ job, recent, isMine }: { job: JobRowData; recent: RecentRun[]; isMine: boolean }) {
  const active = job.enabled && !job.suspendedReason
  return (
    <tr
      className="align-top hover:bg-stone-50 dark:hover:bg-stone-800/40"
      data-testid={`job-row-${job.name}`}
    >
      <td className="px-4 py-3">
        <div className="flex flex-wrap items-center gap-2">
          <a
            href={`/jobs/${job.id}`}
            data-list-link
            className="font-medium [overflow-wrap:anywhere] text-stone-900 hover:text-brand-700 hover:underline dark:text-white dark:hover:text-brand-400"
          >
            {job.name}
          </a>
          <ScopeBadge scope={job.scope} />
        </div>
        <p className="mt-0.5 line-clamp-1 max-w-72 text-xs text-stone-500 dark:text-stone-400">
          {job.instructions}
        </p>
        <p className="mt-1 text-xs text-stone-600 @4xl:hidden dark:text-stone-400">
          {job.description}
          {active ? (
            <span className="@2xl:hidden">
              {' · next '}
              <RelativeTime value={job.nextRun} timeZone={job.timezone} />
            </span>
          ) : null}
        </p>
        {/* The last run and the latest runs' dots, when their column has given way. */}
        {job.lastStatus || recent.length > 0 ? (
          <div className="mt-1 flex flex-wrap items-center gap-1.5 @2xl:hidden">
            <RunStatusChip status={job.lastStatus} error={job.lastError} />
            <DeniedChip count={job.lastDeniedCommands} />
            <RunDots jobId={job.id} runs={recent} />
          </div>
        ) : null}
        <div className="mt-1 max-w-80">
          <PausedChip enabled={job.enabled} suspendedReason={job.suspendedReason} />
        </div>
      </td>
      <td className={cn('px-4 py-3', whenSchedule)}>
        <div>{job.description}</div>
        <code className="text-xs text-stone-500 dark:text-stone-400">{job.schedule}</code>
      </td>
      <td className={cn('px-4 py-3 whitespace-nowrap', whenNext)}>
        {active ? (
          <RelativeTime value={job.nextRun} timeZone={job.timezone} />
        ) : (
          <span className="text-stone-400 dark:text-stone-500">Paused</span>
        )}
      </td>
      <td className={cn('px-4 py-3 whitespace-nowrap', whenNext)}>
        <div className="flex flex-col items-start gap-1">
          <RelativeTime value={job.lastRun} timeZone={job.timezone} empty="Never" />
          <RunStatusChip status={job.lastStatus} error={job.lastError} />
          <DeniedChip count={job.lastDeniedCommands} />
          <RunDots jobId={job.id} runs={recent} />
        </div>
      </td>
      <td className={cn('px-4 py-3 whitespace-nowrap', whenOwner)}>
        <span title={job.createdBy.email}>{job.createdBy.name}</span>
        {isMine ? <span className="ml-1 text-xs text-stone-500">(you)</span> : null}
      </td>
      <td className="px-4 py-3 text-right">
        <EnableSwitch job={job} />
      </td>
      <td className="px-2 py-3 text-right">
        <JobRowMenu job={job} />
      </td>
    </tr>
  )
}
