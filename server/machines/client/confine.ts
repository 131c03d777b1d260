/**
 * Paths confined to the client's `--dir`: no absolute paths, no `..`, and no symlink that resolves
 * outside. Checked on the real path at use time, so a link swapped in later is caught too.
 */
import { realpathSync } from 'node:fs'
import path from 'node:path'
import { ClientError } from './errors.ts'

/** The real, absolute path for `relative` inside `root` (itself a real path); throws when it escapes. */
export function confine(root: string, relative: string): string {
  const given = relative === '' ? '.' : relative
  if (path.isAbsolute(given) || /^[a-zA-Z]:/.test(given)) {
    throw new ClientError(
      'path_outside_dir',
      `${relative}: absolute paths are not allowed; use a path inside the directory`,
    )
  }
  if (given.split(/[\\/]/).includes('..')) {
    throw new ClientError('path_outside_dir', `${relative}: ".." is not allowed`)
  }
  const target = path.resolve(root, given)
  // The nearest existing ancestor decides: a new file's parent must itself resolve inside.
  let existing = target
  let rest = ''
  for (;;) {
    try {
      const real = realpathSync(existing)
      const resolved = rest ? path.join(real, rest) : real
      if (resolved !== root && !resolved.startsWith(root + path.sep)) {
        throw new ClientError('path_outside_dir', `${relative}: resolves outside the directory (symlink)`)
      }
      return resolved
    } catch (err) {
      if (err instanceof ClientError) throw err
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
      const parent = path.dirname(existing)
      if (parent === existing) throw err
      rest = rest ? path.join(path.basename(existing), rest) : path.basename(existing)
      existing = parent
    }
  }
}
