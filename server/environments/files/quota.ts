/**
 * Disk quota per environment. Usage is measured (allocated blocks, symlinks not followed) after each
 * command and kept up to date by the file tools; once it is over the limit, writes are refused until
 * files are removed. A single command can overshoot (it is stopped only by RLIMIT_FSIZE per file),
 * which is why the check after it matters.
 */
import { lstat, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { HttpError } from '../../lib/errors.ts'

const usage = new Map<string, number>()

/** Bytes the tree under `root` occupies on disk. */
export async function measureUsage(root: string): Promise<number> {
  let total = 0
  const stack = [root]
  while (stack.length > 0) {
    const dir = stack.pop()!
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      const path = join(dir, entry.name)
      const stat = await lstat(path).catch(() => null)
      if (!stat) continue
      total += Math.max(stat.blocks * 512, stat.isFile() ? stat.size : 0)
      if (stat.isDirectory()) stack.push(path)
    }
  }
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

export const overQuota = (used: number, limit: number) =>
  new HttpError(
    507,
    'over_quota',
    `The environment is over its disk quota (${formatBytes(used)} used of ${formatBytes(limit)}): ` +
      'further writes are refused. Delete files (e.g. run_command "rm -rf build") to free space.',
  )

/** Refuses a write that would take the environment over `limit` bytes. @throws HttpError 507. */
export async function assertWithinQuota(root: string, limit: number | undefined, adding: number) {
  if (limit === undefined) return
  const used = await currentUsage(root)
  if (used >= limit || used + adding > limit) throw overQuota(used, limit)
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`
}
