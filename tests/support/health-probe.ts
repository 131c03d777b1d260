/**
 * The probe of the event-loop tests: while a tenant's request is being handled by a server in its
 * own process, ask that server's /_agent-native/health again and again. Nothing is timed; the
 * guard only turns a server that stopped answering into a failure instead of a hang.
 */
import { expect } from 'vitest'

/** Asks for health until `work` settles; every answer must come within `guardMs`. Returns how many came. */
export async function healthWhile(baseUrl: string, work: Promise<unknown>, guardMs: number): Promise<number> {
  let settled = false
  void work.finally(() => (settled = true)).catch(() => {})
  let answers = 0
  while (!settled || answers === 0) {
    const res = await fetch(`${baseUrl}/_agent-native/health`, { signal: AbortSignal.timeout(guardMs) })
    expect(res.status).toBe(200)
    await res.arrayBuffer()
    answers++
  }
  return answers
}
