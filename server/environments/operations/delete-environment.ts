/**
 * Deleting an environment as a person asked (decision 0461): its folder and snapshot on this
 * instance, then its record. Its audit rows stay as its history (they have no foreign key, as for
 * a run's scratch folder). A definition still in the workspace is not touched: its next use
 * creates the environment again, empty.
 */
import { hostname } from 'node:os'
import { type Caller, isOrgAdmin } from '../../access/caller.ts'
import { canViewJob } from '../../access/rules.ts'
import { conflict, forbidden, notFound } from '../../lib/errors.ts'
import { logger } from '../../lib/logger.ts'
import { isBuilding } from '../bootstrap/lifecycle.ts'
import { hasRunningCommand } from '../exec/in-use.ts'
import { isScratchName } from '../environments-quota.ts'
import { here } from '../instance.ts'
import { SCRATCH } from '../service.ts'
import { deleteEnvironment, type EnvironmentRow, findEnvironmentById } from '../store.ts'
import { removeFilesHere } from './remove-files.ts'

/**
 * A personal environment is its owner's to delete; a shared one the organisation's admins' (its
 * record names nobody in particular, and the definition's creator may have left or deleted it).
 */
export const canDeleteEnvironment = (caller: Caller, row: Pick<EnvironmentRow, 'scope' | 'createdBy'>) =>
  row.scope === 'personal' ? row.createdBy === caller.userId : isOrgAdmin(caller)

/** Records from before folders were placed by host and directory name the bare host name. */
const placedHere = (row: EnvironmentRow) =>
  row.instanceId === here().instanceId || row.instanceId === hostname()

/**
 * @throws HttpError 404 when the caller cannot see it, 403 when they may not delete it, 409 for
 *   the built-in scratch, while a command or a build runs in it, or when its folder is on another
 *   instance (whose disk this one cannot clean)
 */
export async function deleteEnvironmentAsked(caller: Caller, id: string): Promise<void> {
  const row = await findEnvironmentById(id)
  const facts = row && { orgId: row.orgId, scope: row.scope, createdBy: row.createdBy }
  if (!row || !facts || !canViewJob(caller, facts)) throw notFound('No such environment')
  if (!canDeleteEnvironment(caller, row)) {
    throw forbidden(`Only the organisation's admins delete the shared environment ${row.name}`)
  }
  if (isScratchName(row.name)) {
    throw conflict(`${SCRATCH} is built in and cannot be deleted`, 'environment')
  }
  if (!placedHere(row)) {
    // Its files are on that server's disk, which this one cannot clean: forgetting the record
    // here would leave them there with nothing pointing at them.
    throw conflict(
      `The folder of ${row.name} is on another server (${row.instanceId}): delete it there, or, if ` +
        'that server is gone, Rebuild it here first',
      'environment',
    )
  }
  if (hasRunningCommand(row.id) || isBuilding(row.id)) {
    throw conflict(
      `${row.name} is busy: a command or its setup is running; delete it when it ends`,
      'environment',
    )
  }
  await removeFilesHere(row)
  await deleteEnvironment(row.id)
  logger.info({ environmentId: row.id, actorId: caller.userId }, 'environment deleted')
}
