/**
 * "Rebuild here": when the instance holding an environment's folder is gone, its owner (for a
 * personal environment) or an org admin (for a shared one) moves the record to this instance,
 * where the folder starts empty. Refused while the holder still answers, so a live folder is
 * never orphaned by a click.
 */
import { isOrgAdmin, type Caller } from '../../access/caller.ts'
import { canViewJob } from '../../access/rules.ts'
import { conflict, forbidden, notFound } from '../../lib/errors.ts'
import { logger } from '../../lib/logger.ts'
import { here } from '../instance.ts'
import { findEnvironmentById, recordPlace, touchEnvironment } from '../store.ts'

async function visibleRow(caller: Caller, id: string) {
  const row = await findEnvironmentById(id)
  const facts = row && { orgId: row.orgId, scope: row.scope, createdBy: row.createdBy }
  if (!row || !facts || !canViewJob(caller, facts)) throw notFound('No such environment')
  const mayRebuild = row.scope === 'personal' ? row.createdBy === caller.userId : isOrgAdmin(caller)
  return { row, mayRebuild }
}

/**
 * For the environment page: where its folder is, whether that instance answers now, and whether
 * the caller may rebuild it here (only useful when it does not answer).
 */
export async function holderState(caller: Caller, id: string) {
  const { row, mayRebuild } = await visibleRow(caller, id)
  const elsewhere = row.instanceId !== here().instanceId
  const reachable = elsewhere && row.instanceUrl ? await answers(row.instanceUrl) : false
  return { instanceId: row.instanceId, instanceUrl: row.instanceUrl, reachable, mayRebuild }
}

export async function rebuildHere(caller: Caller, id: string) {
  const { row, mayRebuild } = await visibleRow(caller, id)
  if (!mayRebuild)
    throw forbidden('Only an owner or admin of the organisation may rebuild a shared environment')
  const place = here()
  if (row.instanceId === place.instanceId)
    throw conflict(`The environment ${row.name} already lives on this instance`)
  if (row.instanceUrl && (await answers(row.instanceUrl))) {
    throw conflict(
      `Instance ${row.instanceId} still answers at ${row.instanceUrl}: the environment ${row.name} is in use there`,
    )
  }
  await recordPlace(row.id, place)
  await touchEnvironment(row.id, 0) // the folder starts empty here
  logger.warn(
    { environmentId: row.id, from: row.instanceId, to: place.instanceId, by: caller.userId },
    'environment rebuilt on this instance; its old folder stays where it was',
  )
  return { id: row.id, name: row.name, instanceId: place.instanceId }
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/_agent-native/health`, { signal: AbortSignal.timeout(3_000) })
    return res.status < 500
  } catch {
    return false
  }
}
