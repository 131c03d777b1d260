/**
 * Live bootstrap progress for the environment tools. A tool call that builds its environment
 * (first use, a changed definition) yields the build's state as preliminary results while it
 * runs: the chat streams each one to the tool's step (phase, steps, output tail), and the model
 * never sees them. The final result carries a compact record of the build (steps and their
 * times, no output), which is all a saved chat or a job run's transcript keeps of it.
 */
import type { BootstrapRecord } from '../../environments/bootstrap/bootstrap.ts'
import type { BootstrapWatcher } from '../../environments/bootstrap/bootstrap-watch.ts'

/** A preliminary result: the build as it stands. */
export type BootstrapProgress = { ok: true; bootstrapping: Omit<BootstrapRecord, 'hash'> }

/** What the final result says of a build the call ran or waited for. */
export type BootstrapSummary = {
  status: BootstrapRecord['status']
  /** Where a failed build stopped. */
  phase?: BootstrapRecord['phase']
  restoredFrom?: 'snapshot'
  elapsedMs: number | null
  steps: {
    index: number
    member?: number
    command: string
    status: 'running' | 'ok' | 'failed'
    elapsedMs: number | null
    exitCode?: number | null
  }[]
}

/** The chat shows the end of a running step's output; the page has the longer tail. */
const CHAT_TAIL_CHARS = 1000

const between = (from: string, to: string | undefined) => (to ? Date.parse(to) - Date.parse(from) : null)

export function summarizeBootstrap(record: BootstrapRecord): BootstrapSummary {
  return {
    status: record.status,
    ...(record.status === 'failed' ? { phase: record.phase } : {}),
    ...(record.restoredFrom ? { restoredFrom: record.restoredFrom } : {}),
    elapsedMs: between(record.startedAt, record.finishedAt),
    steps: record.steps.map((s) => ({
      index: s.index,
      ...(s.member === undefined ? {} : { member: s.member }),
      command: s.command,
      status: s.status,
      elapsedMs: between(s.startedAt, s.endedAt),
      ...(s.exitCode === undefined ? {} : { exitCode: s.exitCode }),
    })),
  }
}

function forChat({ hash: _hash, ...record }: BootstrapRecord): BootstrapProgress['bootstrapping'] {
  return {
    ...record,
    steps: record.steps.map((s) => (s.tail ? { ...s, tail: s.tail.slice(-CHAT_TAIL_CHARS) } : s)),
  }
}

/**
 * Runs `work` (which turns its own failures into results), yielding each state of a build it
 * reports while it runs, then its result with the build's summary when there was one.
 */
export async function* withBootstrapProgress<R extends object>(
  work: (onBootstrap: BootstrapWatcher) => Promise<R>,
): AsyncGenerator<BootstrapProgress | (R & { bootstrap?: BootstrapSummary })> {
  // Written by the watcher between awaits: an object, so no narrowing pins what it holds.
  const seen: { latest?: BootstrapRecord; fresh: boolean; wake: () => void } = {
    fresh: false,
    wake: () => {},
  }
  const done = work((record) => {
    seen.latest = record
    seen.fresh = true
    seen.wake()
  }).then((result) => ({ result }))
  for (;;) {
    const next = await Promise.race([
      done,
      new Promise<null>((resolve) => {
        seen.wake = () => resolve(null)
        if (seen.fresh) resolve(null)
      }),
    ])
    const { latest } = seen
    if (next) {
      yield latest ? { ...next.result, bootstrap: summarizeBootstrap(latest) } : next.result
      return
    }
    seen.fresh = false
    if (latest?.status === 'running') yield { ok: true, bootstrapping: forChat(latest) }
  }
}
