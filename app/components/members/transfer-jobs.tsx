import { ArrowRightLeft } from 'lucide-react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { PersonSelect } from './person-select.tsx'
import type { ActionData } from '#app/lib/action-errors.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import type { Person, TransferOutcome } from '#server/jobs/transfer.ts'

/**
 * Settings → Members, for admins: hand every shared job of one person (a leaving member, or one who
 * already left, whose jobs are paused) to a member in one step. To yourself they move at once; to
 * anyone else each is offered, and changes hands (and resumes) when they accept it (decision 0512).
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
    const { outcome, jobs } = data as { outcome: TransferOutcome; jobs: unknown[] }
    const n = `${jobs.length} ${jobs.length === 1 ? 'job' : 'jobs'}`
    return outcome === 'offered'
      ? `${n} offered: each changes hands when they accept it on its page`
      : `${n} transferred to you`
  })
  const memberIds = new Set(members.map((m) => m.userId))
  return (
    <Card className="p-5">
      <h2 className="flex items-center gap-2 font-semibold">
        <ArrowRightLeft className="size-4" aria-hidden /> Transfer shared jobs
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Before someone leaves (or after), hand all their shared jobs on. Choose yourself and they are yours at
        once; anyone else is offered each job and accepts it on its page. Until then a job runs as before, and
        one paused because its owner left stays paused.
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
