/** Where a run's result (and its send_notification calls) went: every attempt, with its outcome. */
import { Badge, Card } from '#app/components/ui/card.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { formatExact } from '#app/lib/time.ts'
import type { DeliveryAttemptView, DeliveryOutcome } from '#server/integrations/views.ts'

/** Each outcome's badge; `paced` is an email its address's pace held back (decision 0531). */
const OUTCOMES: Record<DeliveryOutcome, { label: string; tone: 'green' | 'red' | 'amber' }> = {
  delivered: { label: 'Delivered', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  paced: { label: 'Held back', tone: 'amber' },
}

export function Deliveries({ attempts, timeZone }: { attempts: DeliveryAttemptView[]; timeZone: string }) {
  if (attempts.length === 0) return null
  return (
    <Card className="mb-4 p-5 text-sm" data-testid="deliveries">
      <h2 className="mb-3 font-semibold">Deliveries</h2>
      <table className="w-full text-left">
        <thead className="text-xs text-stone-600 dark:text-stone-400">
          <tr>
            <th className="py-1 pr-3 font-medium">Target</th>
            <th className="py-1 pr-3 font-medium">Attempt</th>
            <th className="py-1 pr-3 font-medium">Outcome</th>
            <th className="py-1 pr-3 font-medium">Duration</th>
            <th className="py-1 font-medium">When</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((a) => (
            <tr
              key={`${a.messageId}-${a.attempt}`}
              className="border-t border-stone-100 dark:border-stone-800"
            >
              <td className="py-1.5 pr-3 font-mono text-xs break-all">{a.target}</td>
              <td className="py-1.5 pr-3">{a.attempt}</td>
              <td className="py-1.5 pr-3">
                <Badge tone={OUTCOMES[a.outcome].tone}>
                  {OUTCOMES[a.outcome].label}
                  {a.statusCode !== null ? ` · ${a.statusCode}` : ''}
                </Badge>
                {a.pacedUntil ? (
                  <PacedUntil until={a.pacedUntil} timeZone={timeZone} />
                ) : a.error ? (
                  <span className="ml-2 text-xs text-stone-600 dark:text-stone-400">{a.error}</span>
                ) : null}
              </td>
              <td className="py-1.5 pr-3">{a.durationMs} ms</td>
              <td className="py-1.5">
                <RelativeTime value={a.at} timeZone={timeZone} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}

/**
 * Why a held-back mail was not sent and from when its address may be mailed again, in the job's
 * zone: an exact time reads right before and after it (the server's words carry a UTC timestamp).
 */
function PacedUntil({ until, timeZone }: { until: string; timeZone: string }) {
  return (
    <span className="ml-2 text-xs text-stone-600 dark:text-stone-400">
      Too many job mails to this address recently; it may be mailed again from{' '}
      <time dateTime={until}>
        {formatExact(new Date(until), { timeZone })} ({timeZone})
      </time>
    </span>
  )
}
