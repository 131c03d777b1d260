/**
 * Waiting for what happens in the background, the one way the integration tests do it: poll with
 * `vi.waitFor` / `expect.poll`, never sleep for a fixed time. The timeouts are hang guards for a
 * small, loaded machine, not deadlines the code must meet.
 */
import { vi } from 'vitest'

/** How often the polls look and how long they wait before failing the test. */
export const POLL = { timeout: 20_000, interval: 25 } as const

/**
 * Polls `probe` until it returns something other than `undefined`, `null` or `false`, and answers
 * that; fails naming `what` when the guard (`timeout`, a minute by default) runs out.
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeout = 60_000,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const found = await probe()
      if (found === undefined || found === null || found === false) throw new Error(`never saw ${what}`)
      return found
    },
    { ...POLL, timeout },
  )
}
