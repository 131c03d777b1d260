import type { Db } from '../db/client.ts'
import { newId } from '../lib/ids.ts'
import { createRunThreads } from '../runs/transcript.ts'
import type { StartedRun } from './claim.ts'

/**
 * Gives runs that are starting their threads (kind 'run', the instructions as the first message),
 * in one statement inside the transaction that starts them; returns the runs with `threadId` set.
 */
export async function withThreads(started: StartedRun[], tx: Db): Promise<StartedRun[]> {
  const threads = started.map(({ run, job }) => ({
    threadId: newId('thr'),
    runId: run.id,
    orgId: job.orgId,
    userId: run.runAsUserId ?? job.createdBy,
    title: job.name,
    instructions: job.instructions,
  }))
  await createRunThreads(threads, tx)
  return started.map((s, i) => ({ ...s, run: { ...s.run, threadId: threads[i]!.threadId } }))
}
