/**
 * Deleting an environment as a person asked (decision 0461): its folder and snapshot, then its
 * record. A folder on another instance is deleted there, the delete forwarded to its holder; when
 * that instance does not answer, only the record goes, if the person asked for that (decision
 * 0466). Its audit rows stay as its history (they have no foreign key, as for
 * a run's scratch folder). A definition still in the workspace is not touched: its next use
 * creates the environment again, empty.
 */
import { hostname } from 'node:os'
import { z } from 'zod'
import { type Caller, isOrgAdmin } from '../../access/caller.ts'
import { canViewJob } from '../../access/rules.ts'
import { conflict, forbidden, HttpError, notFound } from '../../lib/errors.ts'
import { logger } from '../../lib/logger.ts'
import { parseInput } from '../../lib/validate.ts'
import { isBuilding } from '../bootstrap/lifecycle.ts'
import { whileDeleting } from '../exec/in-use.ts'
import { isScratchName } from '../environments-quota.ts'
import { here } from '../instance.ts'
import { SCRATCH } from '../service.ts'
import { deleteEnvironment, type EnvironmentRow, findEnvironmentById } from '../store.ts'
import { forwardDelete } from './remote.ts'
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

/** How a delete was asked. */
export type DeleteOptions = {
  /** When the instance holding the folder does not answer, delete the record only. */
  leaveFolder?: boolean
  /** Forwarded here by another instance: never forwarded again. */
  forwarded?: boolean
}

const DeleteQuery = z.strictObject({
  leaveFolder: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: when its instance does not answer, delete the record and leave the folder there'),
})

/** The delete's options from a query or a form (`leaveFolder=true|false`), 400 naming a bad one. */
export function deleteOptionsOf(fields: URLSearchParams | Record<string, string | undefined>): DeleteOptions {
  const given = fields instanceof URLSearchParams ? Object.fromEntries(fields) : fields
  return { leaveFolder: parseInput(DeleteQuery, given).leaveFolder === 'true' }
}

/** What a delete did: `folderLeftOn` names the instance whose disk still holds the folder. */
export type Deleted = { deleted: string; folderLeftOn?: string }

/**
 * @throws HttpError 404 when the caller cannot see it, 403 when they may not delete it, 409 for
 *   the built-in scratch or while a command, a build or a file operation runs in it (checked where
 *   its folder is),
 *   503 `environment_unreachable` when its folder's instance does not answer and `leaveFolder`
 *   was not asked
 */
export async function deleteEnvironmentAsked(
  caller: Caller,
  id: string,
  options: DeleteOptions = {},
): Promise<Deleted> {
  const row = await findEnvironmentById(id)
  const facts = row && { orgId: row.orgId, scope: row.scope, createdBy: row.createdBy }
  if (!row || !facts || !canViewJob(caller, facts)) throw notFound('No such environment')
  if (!canDeleteEnvironment(caller, row)) {
    throw forbidden(`Only the organisation's admins delete the shared environment ${row.name}`)
  }
  if (isScratchName(row.name)) {
    throw conflict(`${SCRATCH} is built in and cannot be deleted`, 'environment')
  }
  if (!placedHere(row)) return deleteElsewhere(caller, row, options)
  // Commands and file operations run where the folder is (others forward there), so this process
  // is the one to ask; one that starts while the folder goes is refused (workingIn), as is a second
  // delete.
  const done =
    !isBuilding(row.id) &&
    (await whileDeleting(row.id, async () => {
      await removeFilesHere(row)
      await deleteEnvironment(row.id)
    }))
  if (!done) {
    throw conflict(
      `${row.name} is busy: a command, its setup, a file operation or a delete is running; try again when it ends`,
      'environment',
    )
  }
  logger.info({ environmentId: row.id, actorId: caller.userId }, 'environment deleted')
  return { deleted: row.id }
}

/**
 * The holder deletes it (checking the caller and the busy rule again, removing its folder and the
 * record). When it does not answer, the record goes only if the person was told the folder stays
 * behind and asked anyway: a holder that is merely slow must not be left with an orphaned folder.
 */
async function deleteElsewhere(caller: Caller, row: EnvironmentRow, options: DeleteOptions) {
  try {
    await forwardDelete(caller, row, options.forwarded ?? false)
    return { deleted: row.id }
  } catch (err) {
    const gone = err instanceof HttpError && err.code === 'environment_unreachable'
    if (!gone || !options.leaveFolder || options.forwarded) throw err
  }
  await deleteEnvironment(row.id)
  logger.warn(
    { environmentId: row.id, actorId: caller.userId, folderLeftOn: row.instanceId },
    'environment record deleted; its folder stays on an instance that does not answer',
  )
  return { deleted: row.id, folderLeftOn: row.instanceId }
}
