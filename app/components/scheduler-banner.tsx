import { TriangleAlert } from 'lucide-react'
import type { SchedulerWarning } from '#server/scheduler/status.ts'

/**
 * The layout's warning that nothing will fire: no scheduler instance has heartbeat for 90 s
 * (all instances run with SCHEDULER_ENABLED=false, or they are down).
 */
export function SchedulerBanner({ warning }: { warning: SchedulerWarning | null }) {
  if (!warning) return null
  const waiting = [
    warning.dueBacklog > 0
      ? `${warning.dueBacklog} ${warning.dueBacklog === 1 ? 'job is' : 'jobs are'} due`
      : null,
    warning.queued > 0 ? `${warning.queued} ${warning.queued === 1 ? 'run is' : 'runs are'} queued` : null,
  ].filter(Boolean)
  const since =
    warning.silentMinutes === null
      ? 'no scheduler has been seen yet'
      : `no scheduler has been seen for ${warning.silentMinutes} ${warning.silentMinutes === 1 ? 'minute' : 'minutes'}`
  return (
    <div
      role="alert"
      className="mb-6 flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <p>
        <strong className="font-semibold">Scheduled jobs will not fire: {since}.</strong> Start at least one
        Clockwork instance with <code className="font-mono">SCHEDULER_ENABLED=true</code> (the default).
        {waiting.length > 0 && ` In this organisation, ${waiting.join(' and ')} and waiting.`}
      </p>
    </div>
  )
}
