import { describe, expect, it } from 'vitest'
import type { BootstrapRecord } from '../../environments/bootstrap/bootstrap.ts'
import type { BootstrapWatcher } from '../../environments/bootstrap/bootstrap-watch.ts'
import { summarizeBootstrap, withBootstrapProgress } from './bootstrap-progress.ts'

const running: BootstrapRecord = {
  status: 'running',
  hash: 'h1',
  phase: 'setup',
  startedAt: '2026-12-01T10:00:00.000Z',
  steps: [
    {
      index: 0,
      command: 'npm ci',
      status: 'ok',
      startedAt: '2026-12-01T10:00:01.000Z',
      endedAt: '2026-12-01T10:00:03.500Z',
      exitCode: 0,
      tail: 'added 12 packages',
    },
    {
      index: 1,
      member: 0,
      command: 'npm run build',
      status: 'running',
      startedAt: '2026-12-01T10:00:03.500Z',
      tail: 'x'.repeat(1500),
    },
  ],
}
const ready: BootstrapRecord = {
  ...running,
  status: 'ready',
  phase: 'done',
  finishedAt: '2026-12-01T10:00:09.000Z',
  steps: [running.steps[0]!, { ...running.steps[1]!, status: 'ok', endedAt: '2026-12-01T10:00:08.000Z' }],
}

/** Runs the generator to its end, collecting what it yields. */
async function collect<T>(generator: AsyncGenerator<T>) {
  const yielded: T[] = []
  for await (const value of generator) yielded.push(value)
  return yielded
}

describe('bootstrap progress of a tool call', () => {
  it('yields each running state, trimmed for the chat, then the result with a compact summary', async () => {
    let report: BootstrapWatcher = () => {}
    let finish: (value: { ok: true; entries: number }) => void = () => {}
    const generator = withBootstrapProgress(
      (onBootstrap) =>
        new Promise<{ ok: true; entries: number }>((resolve) => {
          report = onBootstrap
          finish = resolve
        }),
    )
    const first = generator.next()
    await Promise.resolve()
    report(running)
    const progress = (await first).value as any
    expect(progress.ok).toBe(true)
    expect(progress.bootstrapping).toMatchObject({ status: 'running', phase: 'setup' })
    expect(progress.bootstrapping.hash).toBeUndefined()
    expect(progress.bootstrapping.steps[1].tail).toHaveLength(1000)
    expect(progress.bootstrapping.steps[0].tail).toBe('added 12 packages')

    const second = generator.next()
    report(ready)
    finish({ ok: true, entries: 3 })
    const rest = [(await second).value, ...(await collect(generator))]
    // The ready state is no progress of its own: it only shapes the result's summary.
    expect(rest).toEqual([
      {
        ok: true,
        entries: 3,
        bootstrap: {
          status: 'ready',
          elapsedMs: 9000,
          steps: [
            { index: 0, command: 'npm ci', status: 'ok', elapsedMs: 2500, exitCode: 0 },
            { index: 1, member: 0, command: 'npm run build', status: 'ok', elapsedMs: 4500 },
          ],
        },
      },
    ])
  })

  it('yields only the result when nothing was built', async () => {
    const yielded = await collect(withBootstrapProgress(async () => ({ ok: true as const, path: 'a.txt' })))
    expect(yielded).toEqual([{ ok: true, path: 'a.txt' }])
  })

  it('summarizes a failed build with where it stopped, a restore as restored', () => {
    const failed: BootstrapRecord = {
      ...running,
      status: 'failed',
      finishedAt: '2026-12-01T10:00:05.000Z',
      steps: [{ ...running.steps[0]!, status: 'failed', exitCode: 2 }],
    }
    expect(summarizeBootstrap(failed)).toEqual({
      status: 'failed',
      phase: 'setup',
      elapsedMs: 5000,
      steps: [{ index: 0, command: 'npm ci', status: 'failed', elapsedMs: 2500, exitCode: 2 }],
    })
    const restored = { ...ready, steps: [], restoredFrom: 'snapshot' as const }
    expect(summarizeBootstrap(restored)).toEqual({
      status: 'ready',
      restoredFrom: 'snapshot',
      elapsedMs: 9000,
      steps: [],
    })
  })
})
