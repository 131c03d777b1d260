import { UserRoundCog } from 'lucide-react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { PersonSelect } from '#app/components/members/person-select.tsx'
import type { ActionData } from '#app/lib/action-errors.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import type { Person, TransferResult } from '#server/jobs/transfer.ts'

/**
 * Admins hand a shared job to a member. Choosing themselves, they take it over at once; anyone else
 * is offered it and accepts or declines on this page (decision 0512): a job never starts acting as
 * someone because another person said so. The audit trail records each step.
 */
export function TransferOwner({
  owner,
  targets,
}: {
  owner: { id: string; name: string }
  targets: readonly Person[]
}) {
  const fetcher = useFetcher<ActionData>()
  useActionToast(fetcher, 'transfer', (data) => {
    const result = data as TransferResult
    return result.outcome === 'offered'
      ? `Offered to ${result.offer.to.name}: nothing changes until they accept`
      : 'The job is yours: its next run acts as you'
  })
  const others = targets.filter((t) => t.userId !== owner.id)
  if (others.length === 0) return null
  return (
    <Card className="p-5">
      <h2 className="flex items-center gap-2 font-semibold">
        <UserRoundCog className="size-4" aria-hidden /> Owner
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Runs act as {owner.name}. Choose yourself to take the job over now; anyone else is offered it, and it
        changes hands only when they accept.
      </p>
      <fetcher.Form method="post" className="mt-3 flex flex-wrap items-center gap-2">
        <input type="hidden" name="intent" value="transfer" />
        <PersonSelect
          name="toUserId"
          label="New owner"
          placeholder="Choose a member…"
          people={others}
          className="flex-1"
        />
        <Button type="submit" variant="secondary" busy={fetcher.state !== 'idle'} busyLabel="Transferring…">
          Transfer
        </Button>
      </fetcher.Form>
    </Card>
  )
}
