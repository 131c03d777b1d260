import { CircleDollarSign } from 'lucide-react'
import { Link } from 'react-router'
import { formatUsd } from '#app/components/runs/format.ts'

/**
 * The layout's notice that the organisation's monthly budget is reached: runs on its model key are
 * skipped (with this reason in their history) until an admin raises the budget.
 */
export function BudgetBanner({
  pause,
  canRaise,
}: {
  pause: { monthlyBudgetUsd: number; spentUsd: number } | null
  canRaise: boolean
}) {
  if (!pause) return null
  return (
    <div
      role="alert"
      className="mb-6 flex items-start gap-3 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      <CircleDollarSign className="mt-0.5 size-4 shrink-0" aria-hidden />
      <p>
        <strong className="font-semibold">
          Runs on the organisation&apos;s key are paused: its monthly budget of{' '}
          {formatUsd(pause.monthlyBudgetUsd)} is reached ({formatUsd(pause.spentUsd)} spent this month).
        </strong>{' '}
        {canRaise ? (
          <>
            Raise it under{' '}
            <Link to="/settings/usage" className="font-medium underline">
              Settings → Usage
            </Link>{' '}
            to resume them.
          </>
        ) : (
          'They resume when an admin raises the budget.'
        )}
      </p>
    </div>
  )
}
