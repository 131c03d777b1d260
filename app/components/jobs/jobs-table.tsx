import { useEffect, useRef, useState } from 'react'
import { Card } from '#app/components/ui/card.tsx'
import { cn } from '#app/lib/cn.ts'
import type { JobRow as JobRowData, ListedOffer } from '#app/lib/job-types.ts'
import { EnableSwitch } from './enable-switch.tsx'
import { DeniedChip, OfferChip, PausedChip, RunStatusChip, ScopeBadge } from './job-chips.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { JobRowMenu } from './job-row-menu.tsx'
import { RunDots, type RecentRun } from './run-dots.tsx'
import { SortHeader } from './sort-header.tsx'
import { useListLinks } from '#app/lib/use-list-links.ts'

const NAME_LINK =
  'font-medium [overflow-wrap:anywhere] text-stone-900 hover:text-brand-700 hover:underline dark:text-white dark:hover:text-brand-400'

type Props = {
  jobs: JobRowData[]
  recentRuns: Record<string, RecentRun[]>
  /** The standing transfer offers the caller is shown, by job. */
  offers: Record<string, ListedOffer>
  meId: string
  busy: boolean
}

/** The jobs the caller can see, one row each, with the state that matters at a glance. */
export function JobsTable({ jobs, recentRuns, offers, meId, busy }: Props) {
  // The rows' name links navigate in the app through one listener on the table, not a Link each.
  const table = useRef<HTMLTableElement>(null)
  useListLinks(table)
  return (
    <Card
      className={cn('@container overflow-x-auto transition-opacity', busy && 'opacity-60')}
      aria-busy={busy}
      data-testid="jobs-table"
    >
      {/* A grid (jobs-table.css): the roles keep it a table for assistive technology. */}
      <table ref={table} role="table" className="jt text-left text-sm">
        <caption className="sr-only">Jobs ({jobs.length})</caption>
        <thead
          role="rowgroup"
          className="border-b border-stone-200 text-xs text-stone-600 dark:text-stone-400 uppercase dark:border-stone-800"
        >
          <tr role="row">
            <SortHeader label="Name" column="name" className="jt-name" />
            <th role="columnheader" scope="col" className="jt-schedule">
              Schedule
            </th>
            <SortHeader label="Next run" column="next" className="jt-next" />
            <SortHeader label="Last run" column="last" className="jt-last" />
            <th role="columnheader" scope="col" className="jt-owner">
              Owner
            </th>
            <th role="columnheader" scope="col" className="jt-enabled">
              Enabled
            </th>
            <th role="columnheader" scope="col" className="jt-actions">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup" className="divide-y divide-stone-100 dark:divide-stone-800">
          {jobs.map((job) => (
            <JobRow
              key={job.id}
              job={job}
              recent={recentRuns[job.id] ?? []}
              offer={offers[job.id]}
              isMine={job.createdBy.id === meId}
            />
          ))}
        </tbody>
      </table>
    </Card>
  )
}

/**
 * One job, each fact once: the cells of the columns that gave way move under the name
 * (jobs-table.css), where the same elements read as small print.
 */
function JobRow({
  job,
  recent,
  offer,
  isMine,
}: {
  job: JobRowData
  recent: RecentRun[]
  offer: ListedOffer | undefined
  isMine: boolean
}) {
  const active = job.enabled && !job.suspendedReason
  return (
    <tr role="row" data-testid={`job-row-${job.name}`}>
      <td role="cell" className="jt-name">
        <div className="flex flex-wrap items-center gap-2">
          <a href={`/jobs/${job.id}`} data-list-link className={NAME_LINK}>
            {job.name}
          </a>
          <ScopeBadge scope={job.scope} />
        </div>
        <InstructionsLine job={job} />
        {active ? null : (
          <div className="mt-1 max-w-80">
            <PausedChip enabled={job.enabled} suspendedReason={job.suspendedReason} />
          </div>
        )}
        {offer ? (
          <div className="mt-1 max-w-80">
            <OfferChip offer={offer} />
          </div>
        ) : null}
      </td>
      <td role="cell" className="jt-schedule">
        <div>{job.description}</div>
        <code className="text-xs text-stone-600 dark:text-stone-400">{job.schedule}</code>
      </td>
      <td role="cell" className="jt-next">
        {active ? (
          <>
            <span className="jt-next-label">Next run: </span>
            <RelativeTime value={job.nextRun} timeZone={job.timezone} />
          </>
        ) : (
          <span className="jt-next-paused text-stone-600 dark:text-stone-400">Paused</span>
        )}
      </td>
      <td role="cell" className="jt-last">
        <RelativeTime value={job.lastRun} timeZone={job.timezone} empty="Never" />
        {/* The outcome and the dots share a line; empty (never run), the line takes no room. */}
        <span className="flex items-center gap-1.5 empty:hidden">
          <RunStatusChip status={job.lastStatus} error={job.lastError} />
          <DeniedChip count={job.lastDeniedCommands} />
          <RunDots jobId={job.id} runs={recent} />
        </span>
      </td>
      <td role="cell" className="jt-owner" title={job.createdBy.email}>
        {job.createdBy.name}
        {isMine ? <span className="ml-1 text-xs text-stone-600 dark:text-stone-400">(you)</span> : null}
      </td>
      <td role="cell" className="jt-enabled">
        <EnableSwitch job={job} />
      </td>
      <td role="cell" className="jt-actions">
        <JobRowMenu job={job} />
      </td>
    </tr>
  )
}

/**
 * The first line of a job's instructions. When the rest is cut off, a "more" link says so (in
 * words, for a screen reader too) and opens the job's definition, where they are shown whole.
 */
function InstructionsLine({ job }: { job: JobRowData }) {
  const text = useRef<HTMLParagraphElement>(null)
  const [cut, setCut] = useState(false)
  useEffect(() => {
    const el = text.current
    if (!el) return
    const measure = () => setCut(el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    return () => observer.disconnect()
  }, [job.instructions])
  return (
    <div className="mt-0.5 flex max-w-80 items-baseline gap-1 text-xs text-stone-600 dark:text-stone-400">
      <p ref={text} className="line-clamp-1 min-w-0">
        {job.instructions}
      </p>
      {cut ? (
        <a
          href={`/jobs/${job.id}?tab=definition`}
          data-list-link
          // The visible word starts the name (WCAG's label in name), which says what it opens.
          aria-label={`more: all the instructions of ${job.name}`}
          className="shrink-0 font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-400"
        >
          more
        </a>
      ) : null}
    </div>
  )
}
