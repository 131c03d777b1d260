/**
 * How often a harness run's hook may be asked to decide a tool call. What asks is whatever runs in
 * the run's sandbox: the CLI, or a command that calls the hook itself as fast as it likes. Each
 * decision judges a command line and writes an audit row to the shared database, so an unpaced
 * loop grew one environment's audit by thousands of rows a second (decision 0448).
 */

/**
 * A burst of {@link HOOK_BURST} decisions, then {@link HOOK_PER_SECOND} a second. A real coding
 * session asks a few times a model turn (a turn takes seconds), in bursts of parallel tool calls
 * far below the burst; a run that keeps up one a second for an hour leaves 3,600 rows.
 */
export const HOOK_BURST = 60
export const HOOK_PER_SECOND = 1

/** A token bucket that takes only what it has: a refused ask costs nothing and leaves no debt. */
export function createHookPace(now: () => number = Date.now): { take(): boolean } {
  let tokens = HOOK_BURST
  let at = now()
  return {
    take() {
      const t = now()
      tokens = Math.min(HOOK_BURST, tokens + ((t - at) / 1000) * HOOK_PER_SECOND)
      at = t
      if (tokens < 1) return false
      tokens -= 1
      return true
    },
  }
}
