/**
 * Executors for scheduler tests: succeed, fail, or wait at a gate the test opens, so a test
 * decides exactly when each run ends.
 */
import type { RunContext, RunExecutor, RunResult } from '#server/runs/executor.ts'

export const ok = (text = 'done'): RunResult => ({
  transcript: [{ role: 'assistant', parts: [{ type: 'text', text }] }],
  usage: { inputTokens: 10, outputTokens: 5 },
})

export const succeed: RunExecutor = async () => ok()

export const fail =
  (message = 'the tool broke'): RunExecutor =>
  async () => {
    throw new Error(message)
  }

/** Never finishes on its own; ends (rejects) only when its signal aborts. */
export const hang: RunExecutor = (ctx) =>
  new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)))

/** Runs wait until the test releases them; `started` lists contexts in start order. */
export function gated() {
  const started: RunContext[] = []
  const waiting = new Map<string, (result: RunResult | Error) => void>()
  const watchers = new Set<() => void>()
  const executor: RunExecutor = (ctx) => {
    started.push(ctx)
    for (const watch of watchers) watch()
    return new Promise((resolve, reject) => {
      waiting.set(ctx.run.id, (r) => (r instanceof Error ? reject(r) : resolve(r)))
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))
    })
  }
  return {
    executor,
    started,
    /** Ends every waiting run (or the given one) with `result`. */
    release(result: RunResult | Error = ok(), runId?: string) {
      for (const [id, finish] of waiting) {
        if (runId && id !== runId) continue
        waiting.delete(id)
        finish(result)
      }
    },
    get waiting() {
      return waiting.size
    },
    /** Resolves once `n` runs in total have reached the executor (told by the executor, not polled). */
    untilStarted(n: number): Promise<void> {
      return new Promise((resolve) => {
        const watch = () => {
          if (started.length < n) return
          watchers.delete(watch)
          resolve()
        }
        watchers.add(watch)
        watch()
      })
    },
  }
}
