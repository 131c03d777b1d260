/**
 * Plain workspace files (not job files). Personal files belong to one person and are only ever
 * looked up under the caller's own id, so nobody can name another person's file. Shared files
 * belong to the organisation: every member may read them, and write and delete them like a team
 * folder, except where the installed checks say shared files belong to their creator
 * (environment definitions, which run with the rights of whoever uses them): those follow the
 * jobs' truth table, so only their creator and the organisation's admins change them.
 */
import { canEditJob, type AccessCaller } from '../access/rules.ts'
import type { Caller } from '../auth/caller.ts'
import { getDb } from '../db/client.ts'
import { badRequest, conflict, forbidden, notFound, payloadTooLarge } from '../lib/errors.ts'
import { isUniqueViolation } from '../jobs/store.ts'
import { newId } from '../lib/ids.ts'
import { MAX_RESOURCE_BYTES, contentTypeFor, type ResourceScope } from './paths.ts'
import { checkWorkspaceRoom } from './quota.ts'
import {
  deleteResourceRow,
  findResourceRow,
  insertResourceRow,
  updateResourceContent,
  type ResourceOwner,
  type ResourceRow,
} from './store.ts'
import { isOwnedWhenShared, validateFileContent, validateWriter } from './validators.ts'

/** A workspace file as callers get it. */
export type ResourceView = {
  path: string
  scope: ResourceScope
  content: string
  version: number
  canEdit: boolean
  contentType: string
  updatedAt: string
  /** Who wrote it last (a user id; unset for job files). */
  updatedBy?: string | null
  /** Who created it (a user id; null when not recorded; unset for job files). */
  createdBy?: string | null
  /** Set for job files: the job behind them. */
  jobId?: string
}

/** Whose files a scope means for this caller. */
export function ownerFor(caller: Caller, scope: ResourceScope): ResourceOwner {
  return { orgId: caller.orgId, scope, ownerId: scope === 'personal' ? caller.userId : null }
}

/**
 * Whether the caller may change (or delete) a file they can read. Personal files are only ever the
 * caller's own. A shared file is the team's, unless shared files at its path belong to their
 * creator: then its creator and the organisation's admins (a file whose creator was not recorded:
 * the admins alone).
 */
export function canEditFile(
  caller: AccessCaller,
  file: { scope: ResourceScope; path: string; createdBy: string | null },
): boolean {
  if (file.scope === 'personal' || !isOwnedWhenShared(file.path)) return true
  return canEditJob(caller, { orgId: caller.orgId, scope: 'shared', createdBy: file.createdBy ?? '' })
}

function assertCanEdit(caller: AccessCaller, row: ResourceRow) {
  if (canEditFile(caller, row)) return
  throw forbidden(
    `Only its creator and the organisation's admins may change or delete the shared file ${row.path}`,
  )
}

function toView(caller: AccessCaller, row: ResourceRow): ResourceView {
  return {
    path: row.path,
    scope: row.scope,
    content: row.content,
    version: row.version,
    canEdit: canEditFile(caller, row),
    contentType: contentTypeFor(row.path),
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
    createdBy: row.createdBy,
  }
}

const missing = (scope: ResourceScope, path: string) => notFound(`No file ${scope}/${path}`)

export async function readFile(caller: Caller, scope: ResourceScope, path: string): Promise<ResourceView> {
  const row = await findResourceRow(ownerFor(caller, scope), path)
  if (!row) throw missing(scope, path)
  return toView(caller, row)
}

/**
 * Creates or replaces a file. With `ifMatch`, the file must exist (404) at that version (409).
 * A new file, and a longer version of one, must fit in the organisation's limits (403
 * `quota_exceeded`); a version no longer than the one it replaces always does.
 * Writing the same content again changes nothing. A file without a recorded creator is claimed
 * by the next person who may change it.
 */
export async function writeFile(
  caller: Caller,
  scope: ResourceScope,
  path: string,
  content: string,
  opts: { ifMatch?: number } = {},
): Promise<{ resource: ResourceView; created: boolean }> {
  checkContent(content)
  validateFileContent(path, content)
  const owner = ownerFor(caller, scope)
  try {
    return await getDb().transaction(async (tx) => {
      const row = await findResourceRow(owner, path, { lock: true }, tx)
      if (row) assertCanEdit(caller, row)
      else if (opts.ifMatch !== undefined) throw missing(scope, path)
      await validateWriter({ caller, scope, path, text: content })
      const view = async () => toView(caller, (await findResourceRow(owner, path, {}, tx))!)
      const bytes = Buffer.byteLength(content, 'utf8')
      if (!row) {
        await checkWorkspaceRoom(caller.orgId, tx, { newFile: true, growthBytes: bytes })
        const by = { updatedBy: caller.userId, createdBy: caller.userId }
        await insertResourceRow({ id: newId('res'), ...owner, path, content, ...by }, tx)
        return { resource: await view(), created: true }
      }
      checkVersion(row, opts.ifMatch)
      if (row.content === content) return { resource: toView(caller, row), created: false }
      const growthBytes = bytes - Buffer.byteLength(row.content, 'utf8')
      await checkWorkspaceRoom(caller.orgId, tx, { newFile: false, growthBytes })
      await updateResourceContent(
        row.id,
        {
          content,
          version: row.version + 1,
          updatedBy: caller.userId,
          createdBy: row.createdBy ?? caller.userId,
        },
        tx,
      )
      return { resource: await view(), created: false }
    })
  } catch (err) {
    // Two people created the same new file at once: the later one should look before overwriting.
    if (isUniqueViolation(err))
      throw conflict(`path: ${scope}/${path} was just created by someone else`, 'path')
    throw err
  }
}

export async function deleteFile(
  caller: Caller,
  scope: ResourceScope,
  path: string,
  opts: { ifMatch?: number } = {},
): Promise<void> {
  await getDb().transaction(async (tx) => {
    const row = await findResourceRow(ownerFor(caller, scope), path, { lock: true }, tx)
    if (!row) throw missing(scope, path)
    assertCanEdit(caller, row)
    checkVersion(row, opts.ifMatch)
    await deleteResourceRow(row.id, tx)
  })
}

function checkContent(content: string) {
  const bytes = Buffer.byteLength(content, 'utf8')
  if (bytes > MAX_RESOURCE_BYTES) {
    throw payloadTooLarge(`The file is ${bytes} bytes; the limit is ${MAX_RESOURCE_BYTES} (1 MiB)`)
  }
  // Postgres text cannot hold U+0000: workspace files are text, so a NUL means binary content.
  if (content.includes('\u0000')) throw badRequest('content: must be text, without NUL characters', 'content')
}

function checkVersion(row: ResourceRow, ifMatch: number | undefined) {
  if (ifMatch === undefined || ifMatch === row.version) return
  throw conflict(
    `Someone else changed ${row.scope}/${row.path} while you were editing (you edited version ${ifMatch}, ` +
      `it is now version ${row.version}). Reload it to see their changes, then make yours again.`,
    'version',
  )
}
