/**
 * An environment's lifecycle on use: when the tree is built for the current definition (its hash of
 * source, setup, packageManager, skills and provider matches, and the folder still holds the
 * ready marker) it is used as it is; otherwise a snapshot taken for the same definition and
 * younger than `snapshotMaxAge` is restored, skipping setup; otherwise it is bootstrapped
 * (bootstrap.ts) and, with `lifecycle.snapshot: after-setup`, snapshotted. The instructions and
 * skills are projected again on every use (project.ts: `.mcp.json` gets current secret values).
 * Definitions that build nothing (no source, setup or git skills, like scratch) are never
 * emptied: only projected. One build at a time per environment in this process; every state it
 * records is also handed to the callers waiting on it (bootstrap-watch.ts), for live progress.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { env as appEnv } from '../../env.ts'
import { HttpError } from '../../lib/errors.ts'
import { logger } from '../../lib/logger.ts'
import { type BootstrapRecord, bootstrap, type BootstrapInput } from './bootstrap.ts'
import { announceBootstrap, type BootstrapWatcher, watchBootstrap } from './bootstrap-watch.ts'
import { maxAgeMs } from '../definition/definition-parts.ts'
import type { EnvironmentDefinition } from '../definition/definition.ts'
import { fileInside, removeInside, writeInside } from '../exec/inside.ts'
import { project } from './project.ts'
import { legacySnapshotName, restoreSnapshot, snapshotName, takeSnapshot } from './snapshot.ts'
import { type EnvironmentRow, findEnvironmentById, updateLifecycle } from '../store.ts'
import { assertAuditAllowance } from '../../accounts/audit-allowance.ts'

/** Written at the root when the tree is built; its absence (a new host, a wiped folder) rebuilds. */
export const READY_MARKER = '.environment-ready'

/** The hash of what builds the tree; the body (instructions) and policy are not part of it. */
export function definitionHash(def: EnvironmentDefinition): string {
  const parts = {
    source: def.source,
    setup: def.setup,
    packageManager: def.packageManager,
    skills: def.skills,
    provider: def.provider,
  }
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32)
}

/** No source, setup or git skills: nothing to build, the folder is only projected into. */
export const buildsNothing = (def: EnvironmentDefinition) =>
  def.source.type === 'none' &&
  def.setup.length === 0 &&
  !def.skills.some((s) => typeof s !== 'string' && s.kind === 'git')

const snapshotsDir = () => resolve(appEnv().ENVIRONMENT_SNAPSHOTS_DIR)
export const snapshotFile = (id: string) => join(snapshotsDir(), snapshotName(id))
/** A snapshot of the format before `sparse` (snapshot.ts): never restored, removed when met. */
export const legacySnapshotFile = (id: string) => join(snapshotsDir(), legacySnapshotName(id))

export type ReadyInput = Omit<BootstrapInput, 'record' | 'onProgress' | 'localRoot'> & {
  row: EnvironmentRow
  /** Gets each state of a build this call runs or waits for (none when the tree is ready). */
  onProgress?: BootstrapWatcher
}

const building = new Map<string, Promise<void>>()

/** True while this process builds (or restores) environment `id`'s tree. */
export const isBuilding = (id: string) => building.has(id)

/** Makes the tree ready for use. @throws HttpError when bootstrap fails (the record keeps why). */
export async function ensureReady(input: ReadyInput): Promise<void> {
  const { row } = input
  const unwatch = input.onProgress ? watchBootstrap(row.id, input.onProgress) : () => {}
  try {
    let waited = false
    while (building.has(row.id)) {
      waited = true
      await building.get(row.id)!.catch(() => undefined)
    }
    // The build waited for may have made the tree: judge by the record as it is now, or this
    // call would rebuild (emptying the folder) from the hash it read before that build ended.
    const current = waited ? ((await findEnvironmentById(row.id)) ?? row) : row
    const work = build({ ...input, row: current })
    building.set(row.id, work)
    try {
      await work
    } finally {
      building.delete(row.id)
    }
  } finally {
    unwatch()
  }
}

async function build(input: ReadyInput) {
  const { row, definition: def, files } = input
  const projection = {
    instructions: def.instructions,
    skills: def.skills,
    secrets: input.secrets,
    approvedSkill: input.approvedSkill,
  }
  if (buildsNothing(def)) return project(files, projection)
  const hash = definitionHash(def)
  const ready = row.definitionHash === hash && (await fileInside(files.root, READY_MARKER))
  if (ready) return project(files, projection)
  // A build's steps are recorded in the audit as commands are: past its person's allowance of the
  // day none runs (decision 0500), or a loop of definition edits would fill the trail instead.
  if (input.gate.tenant) await assertAuditAllowance(input.gate.tenant)

  const record: BootstrapRecord = {
    status: 'running',
    hash,
    phase: 'source',
    startedAt: new Date().toISOString(),
    steps: [],
  }
  const save = async (extra: Parameters<typeof updateLifecycle>[1] = {}) => {
    const copy = structuredClone(record)
    await updateLifecycle(row.id, { bootstrap: copy, ...extra })
    announceBootstrap(row.id, copy)
  }
  const snapshot = snapshotFile(row.id)
  await rm(legacySnapshotFile(row.id), { force: true })
  const fresh =
    def.lifecycle.snapshot === 'after-setup' &&
    row.snapshotHash === hash &&
    row.snapshotAt !== null &&
    Date.now() - row.snapshotAt.getTime() < maxAgeMs(def.lifecycle.snapshotMaxAge) &&
    existsSync(snapshot)
  if (fresh) {
    record.phase = 'restore'
    await save()
    try {
      await restoreSnapshot(files.root, snapshot)
      await project(files, projection)
      return await finish(record, hash, files, save)
    } catch (err) {
      logger.warn({ err, environmentId: row.id }, 'snapshot restore failed; bootstrapping')
      record.restoredFrom = undefined
    }
  }
  await rm(snapshot, { force: true })
  try {
    await bootstrap({
      ...input,
      localRoot: appEnv().ENVIRONMENT_LOCAL_ROOT,
      record,
      onProgress: () => save(),
    })
  } catch (err) {
    record.status = 'failed'
    record.finishedAt = new Date().toISOString()
    record.error = err instanceof HttpError ? err.message : 'bootstrap failed on our side'
    await save({ definitionHash: null })
    throw err
  }
  if (def.lifecycle.snapshot === 'after-setup') {
    record.phase = 'snapshot'
    await save()
    try {
      await takeSnapshot(files.root, snapshot)
      await save({ snapshotHash: hash, snapshotAt: new Date() })
    } catch (err) {
      logger.warn({ err, environmentId: row.id }, 'snapshot failed; the environment works without one')
    }
  }
  await finish(record, hash, files, save)
}

async function finish(
  record: BootstrapRecord,
  hash: string,
  files: ReadyInput['files'],
  save: (extra?: Parameters<typeof updateLifecycle>[1]) => Promise<void>,
) {
  if (record.phase === 'restore') record.restoredFrom = 'snapshot'
  record.status = 'ready'
  record.phase = 'done'
  record.finishedAt = new Date().toISOString()
  // A command may have left a link at the marker's name: it goes, and the marker is a new file.
  await removeInside(files.root, READY_MARKER)
  await writeInside(files.root, READY_MARKER, `${hash}\n`, files.owner)
  await save({ definitionHash: hash })
}
