/**
 * Where search_files runs ripgrep: inside the view a command of the environment gets
 * (exec/sandbox-view.ts), its folder bound read-only, as the sandbox uid, with no network.
 *
 * ripgrep walks a tree by name: it reads a folder's entries, then opens each sub-folder again by
 * its path. A command that swaps a sub-folder for a link in between (renameat2's RENAME_EXCHANGE
 * in a loop) sends it wherever the link points, `--no-follow` or not. Run by the server (root), that
 * was any folder of the host: other tenants' environments two levels up, /etc/shadow. In the view,
 * whatever it follows is what the member's own commands already see. The sandbox uid alone would
 * not do: every environment's folder belongs to it.
 */
import { logger } from '../../lib/logger.ts'
import { HttpError, notFound } from '../../lib/errors.ts'
import { findExecutable, usableBwrap } from '../../sandbox/host-tools.ts'
import { dropPrivileges } from './identity.ts'
import { viewArgs } from './sandbox-view.ts'

/** The view's own /tmp: ripgrep writes nothing, so the smallest bwrap takes. */
const TMP_BYTES = 64 * 1024

/** What the host programs that start the view get: nothing a tenant chose. */
export const SEARCH_ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' }

/**
 * The argv that runs `rg args` in `cwd` (a folder inside `root`, as the view resolves it) in the
 * view of `root`. @throws HttpError 503 when this server cannot make the view or has no ripgrep.
 */
export async function ripgrepInView(root: string, cwd: string, args: string[]): Promise<string[]> {
  const rg = findExecutable('rg')
  if (!rg) throw unavailable('search_files needs ripgrep (rg) installed on this server')
  // Never a search outside the view: a server that cannot make one does not search at all.
  const bwrap = await usableBwrap()
  if (!bwrap) throw unavailable('search_files needs bubblewrap (bwrap) and user namespaces on this server')
  const view = viewArgs({ root, cwd, tmpBytes: TMP_BYTES, readOnlyRoot: true })
  return [...dropPrivileges(), bwrap, ...view, '--', rg, ...args]
}

/**
 * What bubblewrap said when it could not start the search (its messages begin with `bwrap:`), as
 * the answer: the folder searched went away in the meantime (404), else the view failed (503; the
 * log keeps bwrap's words, which name the server's paths). Null when the search ran.
 */
export function viewFailure(stderr: string, rel: string): HttpError | null {
  if (!stderr.startsWith('bwrap:')) return null
  if (stderr.startsWith("bwrap: Can't chdir"))
    return notFound(`path: "${rel}" does not exist in the environment`)
  logger.error({ stderr: stderr.slice(0, 500) }, 'search_files: bubblewrap could not start the search')
  return unavailable('search_files could not start its sandbox on this server')
}

const unavailable = (message: string) => new HttpError(503, 'unavailable', message)
