import { useEffect } from 'react'
import { Link, useFetcher } from 'react-router'
import { toast } from 'sonner'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { formatBytes } from '#app/components/environments/environment-chips.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { ChatUsageTables } from '#app/components/usage/chat-usage-tables.tsx'
import { UsageTables } from '#app/components/usage/usage-tables.tsx'
import { UsageChart } from '#app/components/usage/usage-chart.tsx'
import { formatUsd } from '#app/components/runs/format.ts'
import { fieldError, type ActionData } from '#app/lib/action-errors.ts'
import { cn } from '#app/lib/cn.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { loadUsagePage, saveUsagePage } from '#server/pages/settings-usage.ts'
import type { OrgBudget } from '#server/runs/budget.ts'
import type { OrgUsage } from '#server/agent/quota.ts'
import type { Route } from './+types/_app.settings.usage'

export const meta = () => [{ title: 'Usage · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadUsagePage(await requirePageCaller(request), request)
}

export async function action({ request }: Route.ActionArgs) {
  return saveUsagePage(await requirePageCaller(request), request)
}

/** The organisation's limits, one meter each, in the order the page shows them. */
const LIMIT_METERS: {
  key: keyof OrgUsage
  label: string
  hint: string
  /** The figures are bytes ("4.1 MB"), not a count. */
  bytes?: boolean
}[] = [
  {
    key: 'enabledJobs',
    label: 'Enabled jobs',
    hint: 'Creating or enabling a job past the limit is refused; pause one to make room.',
  },
  {
    key: 'jobs',
    label: 'Jobs, paused ones included',
    hint: 'Creating a job past the limit is refused; delete one to make room.',
  },
  {
    key: 'deploymentKeyRuns',
    label: "Runs on the deployment's key, last 24 hours",
    hint: 'Runs past the limit fail with the reason; an organisation or personal key (Settings → Models) is not counted.',
  },
  {
    key: 'deploymentKeyChatTurns',
    label: "Chat turns on the deployment's key, last 24 hours",
    hint: 'Past the limit the chat answers with the reason; a personal key (Settings → Models) is not counted.',
  },
  {
    key: 'environmentDisk',
    label: "Disk of the organisation's environments",
    hint: 'Sizes as measured after each command, and every second or so while one writes. Past the limit commands that write are stopped or refused; delete files or environments to make room.',
    bytes: true,
  },
  {
    key: 'workspaceFiles',
    label: 'Workspace files, personal and shared',
    hint: 'Creating a file past the limit is refused; delete one to make room. Job files are jobs, counted above.',
  },
  {
    key: 'workspaceStorage',
    label: 'Storage of the workspace files',
    hint: 'A new or longer file past the limit is refused; delete or shorten files to make room.',
    bytes: true,
  },
]

function Meter({
  label,
  used,
  limit,
  hint,
  format = String,
}: {
  label: string
  used: number
  limit: number
  hint: string
  /** How a figure reads (bytes as "4.1 MB"); a plain count by default. */
  format?: (value: number) => string
}) {
  const share = limit > 0 ? Math.min(1, used / limit) : 1
  return (
    <div>
      <div className="flex items-baseline justify-between gap-4 text-sm">
        <span className="font-medium">{label}</span>
        <span className="tabular-nums text-stone-600 dark:text-stone-400">
          {format(used)} of {format(limit)}
        </span>
      </div>
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={used}
        aria-valuetext={`${format(used)} of ${format(limit)}`}
        className="mt-2 h-2 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
      >
        <div
          className={
            share >= 1 ? 'h-full bg-red-600' : share >= 0.8 ? 'h-full bg-amber-500' : 'h-full bg-brand-600'
          }
          style={{ width: `${share * 100}%` }}
        />
      </div>
      <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">{hint}</p>
    </div>
  )
}

/** The monthly budget for runs on the organisation's key: spend against it, and the form to change it. */
function BudgetCard({ budget }: { budget: OrgBudget }) {
  const fetcher = useFetcher<ActionData>()
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) toast.success('Monthly budget saved')
  }, [fetcher.state, fetcher.data])
  const error = fieldError(fetcher.data, 'monthlyBudgetUsd')
  const limit = budget.monthlyBudgetUsd
  return (
    <Card className="p-6">
      <h2 className="font-semibold">Monthly budget</h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        What runs on the organisation&apos;s model key may cost per calendar month (UTC). Once it is reached
        those runs are skipped, with the reason in their history, until you raise it.
      </p>
      <p className="mt-4 text-sm tabular-nums">
        {formatUsd(budget.spentUsd)} spent on the organisation&apos;s key this month
        {limit === null ? ' · no budget set' : ` of ${formatUsd(limit)}`}
        {budget.reached ? (
          <strong className="ml-2 font-semibold text-red-700 dark:text-red-400">Reached: runs paused</strong>
        ) : null}
      </p>
      <fetcher.Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="budget" />
        <div className="w-48">
          <Field label="Budget (USD per month)" error={error} hint="Empty: no budget">
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                name="monthlyBudgetUsd"
                inputMode="decimal"
                defaultValue={limit ?? ''}
                aria-describedby={describedBy}
                aria-invalid={invalid}
              />
            )}
          </Field>
        </div>
        <Button type="submit" busy={fetcher.state !== 'idle'} busyLabel="Saving…">
          Save budget
        </Button>
      </fetcher.Form>
    </Card>
  )
}

const WINDOWS = [7, 30, 90] as const

export default function Usage({ loaderData }: Route.ComponentProps) {
  const { usage, orgName, overview } = loaderData
  if (!usage || !overview) {
    return (
      <Card className="max-w-xl p-6">
        <h2 className="font-semibold">Usage of {orgName}</h2>
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          Only the organisation&apos;s admins and owners see its usage.
        </p>
      </Card>
    )
  }
  const { report, chat, budget } = overview
  return (
    <div className="space-y-6">
      <Card className="max-w-xl p-6">
        <h2 className="font-semibold">Usage of {orgName}</h2>
        <div className="mt-5 space-y-5">
          {LIMIT_METERS.map(({ key, label, hint, bytes }) => (
            <Meter
              key={key}
              label={label}
              used={usage[key].used}
              limit={usage[key].limit}
              hint={hint}
              {...(bytes ? { format: formatBytes } : {})}
            />
          ))}
        </div>
      </Card>
      <BudgetCard budget={budget} />
      <Card className="p-6">
        <nav aria-label="Period" className="mb-4 flex gap-2 text-sm">
          {WINDOWS.map((days) => (
            <Link
              key={days}
              to={`?days=${days}`}
              aria-current={report.days === days ? 'page' : undefined}
              className={cn(
                'rounded-md px-2.5 py-1',
                report.days === days
                  ? 'bg-stone-200 font-medium dark:bg-stone-800'
                  : 'text-stone-600 hover:bg-stone-100 dark:text-stone-400 dark:hover:bg-stone-800',
              )}
            >
              {days} days
            </Link>
          ))}
          <span className="ml-auto self-center text-xs text-stone-600 dark:text-stone-400">
            Days in {report.timezone}
          </span>
        </nav>
        <UsageChart days={report.byDay.map((d) => ({ ...d, count: d.runs, unpricedTurns: 0 }))} />
      </Card>
      <UsageTables report={report} />
      <ChatUsageTables chat={chat} days={report.days} />
    </div>
  )
}
