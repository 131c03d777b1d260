import { ArrowRightLeft } from 'lucide-react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { PersonSelect } from './person-select.tsx'
import type { ActionData } from '#app/lib/action-errors.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import type { Person } from '#server/jobs/transfer.ts'

/**
 * Settings → Members, for admins: hand every shared job of one person (a leaving member, or one who
 * already left, whose jobs are paused) to another member in one step.
 */
export function TransferJobsCard({
  owners,
  members,
}: {
  owners: readonly (Person & { jobs: number })[]
  members: readonly Person[]
}) {
  const fetcher = useFetcher<ActionData>()
  useActionToast(fetcher, 'transfer-jobs', (data) => {
    const n = (data as { transferred: unknown[] }).transferred.length
    return `${n} ${n === 1 ? 'job' : 'jobs'} transferred`
  })
  const memberIds = new Set(members.map((m) => m.userId))
  return (
    <Card className="p-5">
      <h2 className="flex items-center gap-2 font-semibold">
        <ArrowRightLeft className="size-4" aria-hidden /> Transfer shared jobs
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Before someone leaves (or after), hand all their shared jobs to another member. Runs act as the new
        owner from the next run; jobs paused because their owner left resume.
      </p>
      {owners.length === 0 ? (
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">Nobody owns a shared job yet.</p>
      ) : (
        <fetcher.Form method="post" className="mt-3 flex flex-wrap items-center gap-2">
          <input type="hidden" name="intent" value="transfer-jobs" />
          <PersonSelect
            name="fromUserId"
            label="From"
            placeholder="From…"
            people={owners}
            describe={(o) =>
              `${o.name} (${o.jobs} ${o.jobs === 1 ? 'job' : 'jobs'})${memberIds.has(o.userId) ? '' : ' · left'}`
            }
          />
          <span aria-hidden>→</span>
          <PersonSelect name="toUserId" label="To" placeholder="To…" people={members} />
          <Button type="submit" variant="secondary" busy={fetcher.state !== 'idle'} busyLabel="Transferring…">
            Transfer all
          </Button>
        </fetcher.Form>
      )}
    </Card>
  )
}
