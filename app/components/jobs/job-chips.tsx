import { Badge } from '#app/components/ui/card.tsx'
import { SpriteIcon } from '#app/components/ui/icon-sprite.tsx'
import { describeRunStatus } from '#app/lib/job-status.ts'
import type { ListedOffer } from '#app/lib/job-types.ts'

/** Personal or shared, at a glance. */
export function ScopeBadge({ scope }: { scope: 'personal' | 'shared' }) {
  return scope === 'shared' ? (
    <Badge tone="blue">
      <SpriteIcon name="users" className="size-3" /> Shared
    </Badge>
  ) : (
    <Badge>
      <SpriteIcon name="lock" className="size-3" /> Personal
    </Badge>
  )
}

/** The last run's outcome, or nothing when it never ran. */
export function RunStatusChip({ status, error }: { status: string | null; error?: string | null }) {
  if (!status) return null
  const { label, tone } = describeRunStatus(status)
  return (
    <Badge tone={tone} title={error ?? undefined}>
      {label}
    </Badge>
  )
}

/** Paused by a person, or by the system with its reason (which needs someone's attention). */
export function PausedChip({
  enabled,
  suspendedReason,
}: {
  enabled: boolean
  suspendedReason: string | null
}) {
  if (suspendedReason) {
    return (
      <Badge tone="amber" title={suspendedReason} data-testid="suspended-chip">
        <SpriteIcon name="alert" className="size-3" /> Paused by system: {suspendedReason}
      </Badge>
    )
  }
  if (enabled) return null
  return (
    <Badge>
      <SpriteIcon name="pause" className="size-3" /> Paused
    </Badge>
  )
}

/**
 * A job offered to someone (decision 0512): to the member it waits for, that it is theirs to accept
 * on its page; to an admin, whom it waits for.
 */
export function OfferChip({ offer }: { offer: ListedOffer | undefined }) {
  if (!offer) return null
  return (
    <Badge tone="amber" data-testid="offer-chip">
      <SpriteIcon name="handshake" className="size-3" />{' '}
      {offer.toMe ? 'Offered to you: open it to accept' : `Offered to ${offer.toName}`}
    </Badge>
  )
}

/**
 * "2 commands denied": the agent was refused what it asked for (the policy denied a command, or
 * the sandbox refused its connection), so a run that "succeeded" may not have done its work.
 */
export function DeniedChip({ count }: { count: number }) {
  if (count <= 0) return null
  return (
    <Badge
      tone="amber"
      title="The agent was refused commands in this run (the command policy or the network allowlist); the environment's audit log says which"
      data-testid="denied-chip"
    >
      <SpriteIcon name="shield" className="size-3" /> {count} {count === 1 ? 'command' : 'commands'} denied
    </Badge>
  )
}
