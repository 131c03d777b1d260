import { Link } from 'react-router'
import type { UsageReport, UsageTotals } from '#server/runs/usage.ts'
import { formatUsd } from '#app/components/runs/format.ts'
import { TotalsTable, type TotalsRow } from '#app/components/usage/totals-table.tsx'

type Row = Omit<TotalsRow, 'count' | 'cost'> & UsageTotals

const toRow = ({ runs, costUsd, ...row }: Row): TotalsRow => ({
  ...row,
  count: runs,
  cost: formatUsd(costUsd),
})

/** Tokens and cost per job and per person over the report's window. */
export function UsageTables({ report }: { report: UsageReport }) {
  const jobs: Row[] = report.byJob.map((job) => ({
    ...job,
    key: job.jobId,
    label: (
      <Link
        to={`/jobs/${job.jobId}`}
        className="font-medium text-brand-700 hover:underline dark:text-brand-400"
      >
        {job.name}
      </Link>
    ),
    detail: job.scope,
  }))
  if (report.otherPersonalJobs.runs > 0) {
    jobs.push({ ...report.otherPersonalJobs, key: 'other', label: "Members' personal jobs" })
  }
  const people: Row[] = report.byPerson.map((person) => ({
    ...person,
    key: person.userId,
    label: person.name,
    detail: person.email,
  }))
  const none = `No runs reached a model in the last ${report.days} days.`
  return (
    // One above the other: side by side in the settings column (48rem), each table had half of
    // it, broke names mid-word and cut the cost off at the card's edge.
    <div className="grid grid-cols-1 gap-6">
      <TotalsTable title="Per job" first="Job" countLabel="Runs" rows={jobs.map(toRow)} empty={none} />
      <TotalsTable
        title="Per person (runs as)"
        first="Person"
        countLabel="Runs"
        rows={people.map(toRow)}
        empty={none}
      />
    </div>
  )
}
