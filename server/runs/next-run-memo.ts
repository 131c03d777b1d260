import { nextRun } from '../cron/cron.ts'
import type { NextRunFn } from './policy.ts'

/**
 * Next-run math memoized for one claim. Croner with a time zone manages ~13k calls/s here, and
 * jobs due together mostly share schedule, zone and slot, so a burst costs one call per distinct key.
 */
export function memoizeNextRun(next: NextRunFn = nextRun): NextRunFn {
  const cache = new Map<string, Date | null>()
  return (schedule, options) => {
    const key = `${schedule}\u0000${options.timezone}\u0000${options.after.getTime()}`
    let value = cache.get(key)
    if (value === undefined) {
      value = next(schedule, options)
      cache.set(key, value)
    }
    return value
  }
}
