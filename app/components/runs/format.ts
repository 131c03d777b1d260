import type { RunLike } from './types.ts'

/** "850 ms", "3.4 s", "2 min 5 s", "1 h 3 min": a run's length at a glance. */
export function formatElapsed(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 1 : 0)} s`
  const min = Math.floor(ms / 60_000)
  const s = Math.round((ms % 60_000) / 1_000)
  if (min < 60) return s ? `${min} min ${s} s` : `${min} min`
  return `${Math.floor(min / 60)} h ${min % 60} min`
}

/** What started a run, in words. */
export function describeTrigger(run: Pick<RunLike, 'trigger' | 'attempt'>): string {
  switch (run.trigger) {
    case 'manual':
      return 'Run now'
    case 'retry':
      return `Retry · attempt ${run.attempt}`
    case 'catch-up':
      return 'Catch-up'
    default:
      return 'Scheduled'
  }
}

/**
 * "$1.24", "$0.02", "$0.00028", "$0.00009": cents for real money; below a cent, two significant
 * digits and at most five decimals, so a tiny run's cost is no wider than a phone's runs table
 * allows ("$0.000094" pushed it off the screen).
 */
export function formatUsd(usd: number): string {
  if (usd >= 0.01) return `$${usd.toFixed(2)}`
  return `$${Number(usd.toFixed(5)).toLocaleString('en-US', { maximumSignificantDigits: 2 })}`
}
