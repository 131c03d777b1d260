import { Link } from 'react-router'
import type { UsageReport, UsageTotals } from '#server/runs/usage.ts'
import { formatUsd } from '#app/components/runs/format.ts'
import { Card } from '#app/components/ui/card.tsx'

/** Token counts give way on phones, where the run count and the cost still fit beside the name. */
const wide = 'hidden sm:table-cell'

type Row = UsageTotals & { key: string; label: React.ReactNode; detail?: string }

function TotalsTable({
  title,
  first,
  rows,
  empty,
}: {
  title: string
  first: string
  rows: Row[]
  empty: string
}) {
  return (
    <Card className="p-6">
      <h2 className="font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{empty}</p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm tabular-nums">
            <thead>
              <tr className="text-stone-600 dark:text-stone-400">
                <th className="py-1.5 pr-4 font-medium">{first}</th>
                <th className="py-1.5 pr-4 font-medium">Runs</th>
                <th className={`${wide} py-1.5 pr-4 font-medium`}>Tokens in</th>
                <th className={`${wide} py-1.5 pr-4 font-medium`}>Tokens out</th>
                <th className="py-1.5 font-medium">Cost</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key} className="border-t border-stone-100 dark:border-stone-800">
                  <td className="py-1.5 pr-4">
                    {row.label}
                    {row.detail ? (
                      <span className="block text-xs [overflow-wrap:anywhere] text-stone-600 dark:text-stone-400">
                        {row.detail}
                      </span>
                    ) : null}
                  </td>
                  <td className="py-1.5 pr-4">{row.runs}</td>
                  <td className={`${wide} py-1.5 pr-4`}>{row.inputTokens.toLocaleString('en-US')}</td>
                  <td className={`${wide} py-1.5 pr-4`}>{row.outputTokens.toLocaleString('en-US')}</td>
                  <td className="py-1.5">{formatUsd(row.costUsd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  )
}

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
      <TotalsTable title="Per job" first="Job" rows={jobs} empty={none} />
      <TotalsTable title="Per person (runs as)" first="Person" rows={people} empty={none} />
    </div>
  )
}
