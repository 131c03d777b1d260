/**
 * Disk quota per environment. Usage is measured (allocated blocks, symlinks not followed) after each
 * command and kept up to date by the file tools; once it is over the limit, writes are refused until
 * files are removed. A running command is watched and stopped once over it (disk-watch.ts); it can
 * overshoot by what it writes between two measurements, which is why the check after it matters.
 *
 * The count is GNU du's, in a child: it never follows a link (a folder a command swaps for a link
 * to / cannot make the server walk the host) and a tree of a million files costs the event loop
 * nothing. Allocated blocks and apparent sizes are both counted, the larger wins (sparse files).
 */
import { spawn } from 'node:child_process'
import { HttpError } from '../../lib/errors.ts'
import { formatBytes } from '../../lib/text.ts'

const usage = new Map<string, number>()

/** Past this a count is given up and the last known figure kept. */
const DU_TIMEOUT_MS = 60_000

/** du's total for `root` in bytes (`--apparent-size` when asked), undefined when it gave none. */
function du(root: string, apparent: boolean): Promise<number | undefined> {
  const args = ['-s', '-x', '-P', '-B1', ...(apparent ? ['--apparent-size'] : []), '--', root]
  return new Promise((resolve) => {
    const child = spawn('du', args, {
      env: { PATH: '/usr/bin:/bin', LANG: 'C' },
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: DU_TIMEOUT_MS,
    })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out = (out + chunk.toString()).slice(-200)))
    child.on('error', () => resolve(undefined))
    // du exits 1 when a file vanished or was unreadable mid-way; its total is still printed.
    child.on('close', () => {
      const total = Number(/^(\d+)\s/.exec(out)?.[1])
      resolve(Number.isFinite(total) ? total : undefined)
    })
  })
}

/** The blocks the tree under `root` takes from the disk, in bytes; undefined when du gave none. */
export const diskBlocks = (root: string) => du(root, false)

/**
 * Bytes the tree under `root` occupies (its blocks or its apparent size, the larger), undefined
 * when du gave neither; nothing is remembered (a folder that is not an environment's, like a
 * build's staging folder).
 */
export async function treeBytes(root: string): Promise<number | undefined> {
  const [blocks, apparent] = await Promise.all([du(root, false), du(root, true)])
  if (blocks === undefined && apparent === undefined) return undefined
  return Math.max(blocks ?? 0, apparent ?? 0)
}

/** Bytes the tree under `root` occupies on disk. */
export async function measureUsage(root: string): Promise<number> {
  const total = await treeBytes(root)
  if (total === undefined) return usage.get(root) ?? 0
  usage.set(root, total)
  return total
}

/** Last known usage, measured now when unknown. */
export async function currentUsage(root: string): Promise<number> {
  return usage.get(root) ?? measureUsage(root)
}

/** Adjusts the known usage after a tool wrote or replaced a file (a measurement replaces it later). */
export function adjustUsage(root: string, delta: number) {
  const known = usage.get(root)
  if (known !== undefined) usage.set(root, Math.max(0, known + delta))
}

/** The refusal of a write over the quota; `note` says why the quota is what it is, when it is not its own. */
export const overQuota = (used: number, limit: number, note?: string) =>
  new HttpError(
    507,
    'over_quota',
    `The environment is over its disk quota (${formatBytes(used)} used of ${formatBytes(limit)}): ` +
      'further writes are refused. Delete files (e.g. run_command "rm -rf build") to free space.' +
      (note ? ` ${note}` : ''),
  )

/** Refuses a write that would take the environment over `limit` bytes. @throws HttpError 507. */
export async function assertWithinQuota(
  root: string,
  limit: number | undefined,
  adding: number,
  note?: string,
) {
  if (limit === undefined) return
  const used = await currentUsage(root)
  if (used >= limit || used + adding > limit) throw overQuota(used, limit, note)
}
