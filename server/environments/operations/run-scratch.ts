/**
 * A job run without an `environment` works in a scratch folder of its own, created on its first
 * tool call (service.ts `openEnvironment` with the run's id) and removed here when the run ends,
 * whatever its outcome. Its audit rows stay.
 */
import { logger } from '../../lib/logger.ts'
import { here } from '../instance.ts'
import { runScratchName } from '../service.ts'
import { removeFilesHere } from './remove-files.ts'
import { deleteEnvironment, findEnvironment } from '../store.ts'

/** Removes the run's scratch folder and record, if the run made one. Never throws. */
export async function removeRunScratch(run: {
  orgId: string
  userId: string
  runId: string
}): Promise<boolean> {
  try {
    const row = await findEnvironment({
      orgId: run.orgId,
      scope: 'personal',
      name: runScratchName(run.runId),
      createdBy: run.userId,
    })
    if (!row) return false
    if (row.instanceId === here().instanceId) await removeFilesHere(row)
    await deleteEnvironment(row.id)
    return true
  } catch (err) {
    logger.warn({ err, runId: run.runId }, 'could not remove the run’s scratch folder')
    return false
  }
}
