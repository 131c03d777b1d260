/** How a job's state reads in a chip: label, colour and what it means. */
export type StatusTone = 'neutral' | 'brand' | 'green' | 'red' | 'amber' | 'blue'

const LAST_STATUS: Record<string, { label: string; tone: StatusTone }> = {
  success: { label: 'Succeeded', tone: 'green' },
  error: { label: 'Failed', tone: 'red' },
  timed_out: { label: 'Timed out', tone: 'red' },
  interrupted: { label: 'Interrupted', tone: 'amber' },
  skipped: { label: 'Skipped', tone: 'neutral' },
  missed: { label: 'Missed', tone: 'neutral' },
  cancelled: { label: 'Cancelled', tone: 'amber' },
  running: { label: 'Running', tone: 'blue' },
  queued: { label: 'Queued', tone: 'blue' },
}

/** The chip for a run status the scheduler wrote; unknown values show as they are. */
export function describeRunStatus(status: string): { label: string; tone: StatusTone } {
  return LAST_STATUS[status] ?? { label: status.replace(/_/g, ' '), tone: 'neutral' }
}
