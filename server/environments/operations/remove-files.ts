/**
 * Removes what an environment keeps on this instance's disk: its folder (emptied as the sandbox
 * uid, without following links a command left, then the folder itself) and its snapshot. Docker
 * environments keep nothing more: their containers are per command and removed when it ends.
 */
import { lstat, rm, rmdir } from 'node:fs/promises'
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
  const root = join(environmentsDir(), row.dir)
  // Never made for a connected machine's environment; the sandboxed `find` would fail on it.
  const made = await lstat(root).then(
    () => true,
    (err: NodeJS.ErrnoException) => (unlessGone(err), false),
  )
  if (made) {
    await emptyFolder(root)
    await rmdir(root).catch(unlessGone)
  }
  for (const file of [snapshotFile(row.id), legacySnapshotFile(row.id)]) await rm(file, { force: true })
}
