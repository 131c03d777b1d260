/**
 * How often a harness run's hook may be asked to decide a tool call. What asks is whatever runs in
 * the run's sandbox: the CLI, or a command that calls the hook itself as fast as it likes. Each
 * decision judges a command line and writes an audit row to the shared database, so an unpaced
 * loop grew one environment's audit by thousands of rows a second (decision 0448).
 */

/**
 * A burst of {@link HOOK_BURST} decisions, then {@link HOOK_PER_SECOND} a second. One reply of the
 * real Claude Code CLI with 16 parallel tool calls asked 16 times within 1.5 s, and a reply takes
 * the model seconds: subagents at work stay under four a second. A run that keeps that up for an
 * hour leaves 14,400 rows; unpaced, a loop in the sandbox wrote thousands a second.
 */
export const HOOK_BURST = 100
export const HOOK_PER_SECOND = 4

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
