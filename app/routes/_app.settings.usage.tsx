import { Card } from '#app/components/ui/card.tsx'
import { requirePageCaller } from '#server/http/pages.ts'
import { loadUsagePage } from '#server/pages/settings-usage.ts'
import type { Route } from './+types/_app.settings.usage'

export const meta = () => [{ title: 'Usage · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadUsagePage(await requirePageCaller(request))
}

function Meter({ label, used, limit, hint }: { label: string; used: number; limit: number; hint: string }) {
  const share = limit > 0 ? Math.min(1, used / limit) : 1
  return (
    <div>
      <div className="flex items-baseline justify-between gap-4 text-sm">
        <span className="font-medium">{label}</span>
        <span className="tabular-nums text-stone-600 dark:text-stone-400">
          {used} of {limit}
        </span>
      </div>
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={used}
        className="mt-2 h-2 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
      >
        <div
          className={
            share >= 1 ? 'h-full bg-red-600' : share >= 0.8 ? 'h-full bg-amber-500' : 'h-full bg-brand-600'
          }
          style={{ width: `${share * 100}%` }}
        />
      </div>
      <p className="mt-1 text-xs text-stone-500">{hint}</p>
    </div>
  )
}

export default function Usage({ loaderData }: Route.ComponentProps) {
  const { usage, orgName } = loaderData
  return (
    <Card className="max-w-xl p-6">
      <h2 className="font-semibold">Usage of {orgName}</h2>
      {usage ? (
        <div className="mt-5 space-y-5">
          <Meter
            label="Enabled jobs"
            used={usage.enabledJobs.used}
            limit={usage.enabledJobs.limit}
            hint="Creating or enabling a job past the limit is refused; pause one to make room."
          />
          <Meter
            label="Runs on the deployment's key, last 24 hours"
            used={usage.deploymentKeyRuns.used}
            limit={usage.deploymentKeyRuns.limit}
            hint="Runs past the limit fail with the reason; an organisation or personal key (Settings → Models) is not counted."
          />
        </div>
      ) : (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          Only the organisation&apos;s admins and owners see its usage.
        </p>
      )}
    </Card>
  )
}
