/**
 * Plain workspace files (not job files). Personal files belong to one person and are only ever
 * looked up under the caller's own id, so nobody can name another person's file. Shared files
 * belong to the organisation: every member may read, write and delete them, like a team folder.
 */
import type { Caller } from '../auth/caller.ts'
import { getDb } from '../db/client.ts'
import { badRequest, conflict, notFound, payloadTooLarge } from '../lib/errors.ts'
import { isUniqueViolation } from '../jobs/store.ts'
import { newId } from '../lib/ids.ts'
import { MAX_RESOURCE_BYTES, contentTypeFor, type ResourceScope } from './paths.ts'
import {
  deleteResourceRow,
  findResourceRow,
  insertResourceRow,
  updateResourceContent,
  type ResourceOwner,
  type ResourceRow,
} from './store.ts'
import { validateFileContent } from './validators.ts'

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
  /** Set for job files: the job behind them. */
  jobId?: string
}

/** Whose files a scope means for this caller. */
export function ownerFor(caller: Caller, scope: ResourceScope): ResourceOwner {
  return { orgId: caller.orgId, scope, ownerId: scope === 'personal' ? caller.userId : null }
}

/**
 * Whether the caller may change a file they can read: always. Personal files are only ever the
 * caller's own, and shared files are a team folder every member may write (jobs are different:
 * their files follow the job truth table).
 */
export const canEditFile = (): boolean => true

function toView(row: ResourceRow): ResourceView {
  return {
    path: row.path,
    scope: row.scope,
    content: row.content,
    version: row.version,
    canEdit: canEditFile(),
    contentType: contentTypeFor(row.path),
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  }
}

const missing = (scope: ResourceScope, path: string) => notFound(`No file ${scope}/${path}`)

export async function readFile(caller: Caller, scope: ResourceScope, path: string): Promise<ResourceView> {
  const row = await findResourceRow(ownerFor(caller, scope), path)
  if (!row) throw missing(scope, path)
  return toView(row)
}

/**
 * Creates or replaces a file. With `ifMatch`, the file must exist (404) at that version (409).
 * Writing the same content again changes nothing.
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
      if (!row) {
        if (opts.ifMatch !== undefined) throw missing(scope, path)
        await insertResourceRow({ id: newId('res'), ...owner, path, content, updatedBy: caller.userId }, tx)
        return { resource: toView((await findResourceRow(owner, path, {}, tx))!), created: true }
      }
      checkVersion(row, opts.ifMatch)
      if (row.content === content) return { resource: toView(row), created: false }
      await updateResourceContent(row.id, { content, version: row.version + 1, updatedBy: caller.userId }, tx)
      return { resource: toView((await findResourceRow(owner, path, {}, tx))!), created: false }
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
