import { Handshake } from 'lucide-react'
import { useFetcher } from 'react-router'
import { Badge, Card } from '#app/components/ui/card.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import type { ActionData } from '#app/lib/action-errors.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import type { TransferOfferView } from '#server/jobs/transfer-offers.ts'

/**
 * A job offered to a member (decision 0512), above the job's sections. The member it is offered to
 * reads who offered it and what accepting means, and accepts or declines; an admin sees whom it
 * waits for and may withdraw it. Nobody else is shown anything: the offer changes nothing for them.
 * Mounted with or without an offer, so the toast of an answer outlives the offer it ended.
 */
export function TransferOfferCard({
  offer,
  creator,
  version,
  me,
}: {
  offer: TransferOfferView | null
  creator: { name: string }
  /** The job's version on the page: accepting is for exactly what the member read. */
  version: number
  me: { userId: string; isAdmin: boolean }
}) {
  const fetcher = useFetcher<ActionData>()
  useActionToast(fetcher, 'accept-transfer', () => 'The job is yours: its next run acts as you')
  useActionToast(fetcher, 'decline-transfer', () => 'Offer declined: the job stays as it was')
  useActionToast(fetcher, 'withdraw-transfer', () => 'Offer withdrawn: the job stays as it was')
  const mine = offer?.to.id === me.userId
  if (!offer || (!mine && !me.isAdmin)) return null
  const by = offer.offeredBy?.name ?? 'An admin'
  const busy = fetcher.state !== 'idle'
  const pending = fetcher.formData?.get('intent')
  return (
    <Card
      // An accent on the left: the card's own border colour is set on all sides, which the
      // left side's colour overrides (one colour for all four did not, in the stylesheet's order).
      className="mb-6 border-l-4 border-l-amber-400 p-5 dark:border-l-amber-600"
      role="region"
      aria-label="Transfer offer"
    >
      <h2 className="flex flex-wrap items-center gap-2 font-semibold">
        <Handshake className="size-4" aria-hidden />
        {mine ? `${by} offered you this job` : `Offered to ${offer.to.name}`}
        <Badge tone={offer.lapsed ? 'neutral' : 'amber'}>{offer.lapsed ? 'Lapsed' : 'Waiting'}</Badge>
        <span className="text-xs font-normal text-stone-600 dark:text-stone-400">
          <RelativeTime value={offer.offeredAt} />
        </span>
      </h2>
      <p className="mt-1 max-w-prose text-sm text-stone-600 dark:text-stone-400">
        {describe({ mine, lapsed: offer.lapsed, by, to: offer.to.name, creator: creator.name })}
      </p>
      <fetcher.Form method="post" className="mt-3 flex flex-wrap gap-2">
        <input type="hidden" name="version" value={version} />
        {mine && !offer.lapsed ? (
          <Button
            type="submit"
            name="intent"
            value="accept-transfer"
            busy={busy && pending === 'accept-transfer'}
            busyLabel="Accepting…"
          >
            Accept
          </Button>
        ) : null}
        <Button
          type="submit"
          name="intent"
          value={mine ? 'decline-transfer' : 'withdraw-transfer'}
          variant="secondary"
          busy={busy && pending !== 'accept-transfer'}
          busyLabel={mine ? 'Declining…' : 'Withdrawing…'}
        >
          {mine ? 'Decline' : 'Withdraw offer'}
        </Button>
      </fetcher.Form>
    </Card>
  )
}

/** What the offer means for whoever reads it: what accepting does, or why it can no longer be. */
function describe(o: { mine: boolean; lapsed: boolean; by: string; to: string; creator: string }): string {
  if (o.mine && o.lapsed)
    return `The job changed after ${o.by} offered it, so the offer lapsed: you would accept something you have not read. Ask them to offer it again, or decline.`
  if (o.mine)
    return `Accept and its runs act as you from the next run: on your own model key when it runs as its creator, with your personal environments, secrets and MCP servers. Read its definition first. Until you accept, nothing changes: it runs as ${o.creator}.`
  if (o.lapsed)
    return `The job changed after the offer was made, so ${o.to} can no longer accept it. Offer it again under Owner, or withdraw it.`
  return `Nothing changes until ${o.to} accepts: its runs act as ${o.creator}, and a job paused because its owner left stays paused.`
}
