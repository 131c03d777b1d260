/**
 * The contract between the scheduler and whatever executes a run. The server entry passes the
 * agent's executor (agent/run-executor.ts) to the scheduler; tests pass fakes.
 */
import type { RunJob } from './run-job.ts'
import type { RunRow, TranscriptMessage } from './schema.ts'

/** A message the executor produced, stored in the run's thread after the user prompt. */
export type ExecutorMessage = Pick<TranscriptMessage, 'role' | 'parts'>

export type RunUsage = { inputTokens: number; outputTokens: number; costUsd?: number; model?: string }

export type RunContext = {
  run: RunRow
  job: RunJob
  /** Whose identity (and model key, later) the run uses: the author of the current instructions. */
  runAsUserId: string
  /** The run's thread (kind 'run'); its first message is the job's instructions. */
  threadId: string
  /** Aborted on timeout, on shutdown past the grace period and when the lease is lost. */
  signal: AbortSignal
  /**
   * What the run has said so far, each call replacing the last: kept in its thread while it runs
   * (the run page shows it live), and kept when the run ends without a transcript (timed out,
   * stopped). Optional: an executor that reports nothing shows its transcript at the end.
   */
  progress?: (transcript: ExecutorMessage[]) => void
}

export type RunResult = {
  /** Messages after the user prompt (assistant replies, tool calls and results). */
  transcript: ExecutorMessage[]
  usage: RunUsage
}

/** Executes one run. Throw (ideally a {@link RunFailure}) to fail it; the message is shown to people. */
export type RunExecutor = (ctx: RunContext) => Promise<RunResult>

/** A failure that still has something to keep: what the model said before it failed, and its cost. */
export class RunFailure extends Error {
  constructor(
    message: string,
    readonly partial: Partial<RunResult> = {},
  ) {
    super(message)
    this.name = 'RunFailure'
  }
}

/**
 * The run must not start: a pause nobody fixes by retrying (the organisation's monthly budget is
 * reached). Recorded `skipped` with the message as its reason; no retry, no auto-pause count.
 */
export class RunSkipped extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RunSkipped'
  }
}
