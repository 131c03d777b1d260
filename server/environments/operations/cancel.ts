/**
 * Cancelling a run stops its commands too. The run is settled first (server/runs/control.ts: its
 * executor aborts at the next lease renewal); then every command it started on a provider that
 * outlives the request gets a stop, kept for a machine that is offline.
 */
import type { Caller } from '../../access/caller.ts'
import { logger } from '../../lib/logger.ts'
import { cancelRun } from '../../runs/control.ts'
import type { Run } from '../../runs/schema.ts'
import { stopCommands } from '../providers/providers.ts'

export async function cancelRunAndCommands(caller: Caller, runId: string): Promise<Run> {
  const run = await cancelRun(caller, runId)
  await stopCommands({ runId }).catch((err: unknown) =>
    logger.warn(
      { err, runId },
      'could not ask for the stop of a cancelled run’s commands; they end with their timeout',
    ),
  )
  return run
}
