import { UserRoundCog } from 'lucide-react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { PersonSelect } from '#app/components/members/person-select.tsx'
import type { ActionData } from '#app/lib/action-errors.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import type { Person } from '#server/jobs/transfer.ts'

/**
 * Admins hand a shared job to another member: from its next run the job acts as them (and spends
 * their key when it runs as its creator). The audit trail records who did it.
 */
export function TransferOwner({
  owner,
  targets,
}: {
  owner: { id: string; name: string }
  targets: readonly Person[]
}) {
  const fetcher = useFetcher<ActionData>()
  useActionToast(fetcher, 'transfer', () => 'Job transferred: the next run uses the new owner’s identity')
  const others = targets.filter((t) => t.userId !== owner.id)
  if (others.length === 0) return null
  return (
    <Card className="p-5">
      <h2 className="flex items-center gap-2 font-semibold">
        <UserRoundCog className="size-4" aria-hidden /> Owner
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Runs act as {owner.name}. Transfer the job and the next run acts as the new owner.
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
