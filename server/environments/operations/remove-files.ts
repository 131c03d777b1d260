/**
 * Removes what an environment keeps on this instance's disk: its folder (emptied as the sandbox
 * uid, without following links a command left, then the folder itself) and its snapshot. Docker
 * environments keep nothing more: their containers are per command and removed when it ends.
 */
import { lstat, readdir, rm, rmdir } from 'node:fs/promises'
import { join } from 'node:path'
import { legacySnapshotFile, snapshotFile } from '../bootstrap/lifecycle.ts'
import { emptyFolder } from '../exec/inside.ts'
import { environmentsDir } from '../instance.ts'
import type { EnvironmentRow } from '../store.ts'

const unlessGone = (err: NodeJS.ErrnoException) => {
  if (err.code !== 'ENOENT') throw err
}

/** Removes `row`'s folder and snapshot here; what is already gone (or never made) is fine. */
export async function removeFilesHere(row: Pick<EnvironmentRow, 'id' | 'dir'>): Promise<void> {
  await removeFolderHere(row.dir)
  await removeSnapshotsHere(row.id)
}

/** Removes the folder `dir` (relative to ENVIRONMENTS_DIR) and all in it; gone already is fine. */
export async function removeFolderHere(dir: string): Promise<void> {
  const root = join(environmentsDir(), dir)
  // Never made for a connected machine's environment; the sandboxed `find` would fail on it.
  const made = await lstat(root).then(
    () => true,
    (err: NodeJS.ErrnoException) => (unlessGone(err), false),
  )
  if (made) {
    await emptyFolder(root)
    await rmdir(root).catch(unlessGone)
  }
}

/**
 * Removes an organisation's folder here: each environment's in it (`<owner>/<name>`, a run's
 * scratch `<owner>/.runs/<run>`, service.ts `openEnvironment`) as {@link removeFolderHere} does,
 * then the folders that held them, which are the server's and hold nothing else.
 */
export async function removeOrganizationFolderHere(orgId: string): Promise<void> {
  for (const owner of await entriesOf(orgId)) {
    for (const name of await entriesOf(join(orgId, owner))) {
      if (name !== '.runs') await removeFolderHere(join(orgId, owner, name))
      else
        for (const run of await entriesOf(join(orgId, owner, name)))
          await removeFolderHere(join(orgId, owner, name, run))
    }
    await rmdir(join(environmentsDir(), orgId, owner, '.runs')).catch(unlessGone)
    await rmdir(join(environmentsDir(), orgId, owner)).catch(unlessGone)
  }
  await rmdir(join(environmentsDir(), orgId)).catch(unlessGone)
}

/** The names in `dir` (relative to ENVIRONMENTS_DIR); none when it is not there. */
const entriesOf = (dir: string): Promise<string[]> =>
  readdir(join(environmentsDir(), dir)).catch((err: NodeJS.ErrnoException) => (unlessGone(err), []))

/** Removes environment `id`'s snapshot here, in either format. */
export async function removeSnapshotsHere(id: string): Promise<void> {
  for (const file of [snapshotFile(id), legacySnapshotFile(id)]) await rm(file, { force: true })
}
