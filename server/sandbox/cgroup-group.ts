/**
 * A cgroup as something the server reads the processes of: the file listing its threads, and its
 * freezer, so that a reader sees them all at one moment. A process that forks and exits in a loop
 * is gone before a reader that listed it looks at it; frozen, it stays where it was listed.
 *
 * An environment's box (cgroup.ts) is one; a container's cgroup, found from its first process's
 * `/proc/<pid>/cgroup`, is another.
 */
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'

const ROOT = '/sys/fs/cgroup'

export type TaskGroup = {
  /** Every thread in the group, one id a line (v1 `tasks`, v2 `cgroup.threads`). */
  threads: string
  /** Every process (thread group) in the group, one id a line (`cgroup.procs`). */
  processes: string
  /** Its folder in the freezer hierarchy (v1 `freezer.state`) or its own (v2 `cgroup.freeze`). */
  freezer?: { version: 1 | 2; dir: string }
}

/** How long a freeze waits for the group's last process to stop (one in a disk wait takes a while). */
const FREEZE_WAIT_MS = 250
const FREEZE_POLL_MS = 5

/** Ids of the threads or the processes in `group` now; empty when the group is gone. */
export async function groupIds(group: TaskGroup, of: 'threads' | 'processes'): Promise<number[]> {
  const text = await readFile(group[of], 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter((line) => /^\d+$/.test(line))
    .map(Number)
}

// One freeze of a group at a time: two readers of the same box (two commands of one environment)
// must not thaw it under each other.
const freezes = new Map<string, Promise<unknown>>()

/**
 * Runs `read` with the group's processes frozen, and thaws them after it, whatever it did. A group
 * without a freezer is read as it is. A freeze that has not taken everyone within FREEZE_WAIT_MS
 * (a process in a disk wait) is read anyway: what is still running then is not forking.
 */
export async function whileFrozen<T>(group: TaskGroup, read: () => Promise<T>): Promise<T> {
  const freezer = group.freezer
  if (!freezer) return read()
  const before = freezes.get(freezer.dir) ?? Promise.resolve()
  const turn = before.then(async () => {
    try {
      await freeze(freezer)
      return await read()
    } finally {
      await thaw(freezer)
    }
  })
  const settled = turn.catch(() => {})
  freezes.set(freezer.dir, settled)
  void settled.then(() => {
    if (freezes.get(freezer.dir) === settled) freezes.delete(freezer.dir)
  })
  return turn
}

async function freeze({ version, dir }: NonNullable<TaskGroup['freezer']>) {
  const [control, value] = version === 1 ? ['freezer.state', 'FROZEN'] : ['cgroup.freeze', '1']
  await writeFile(join(dir, control), value)
  const [state, frozen] = version === 1 ? ['freezer.state', /^FROZEN/] : ['cgroup.events', /^frozen 1$/m]
  for (let waited = 0; waited < FREEZE_WAIT_MS; waited += FREEZE_POLL_MS) {
    if (frozen.test(await readFile(join(dir, state), 'utf8').catch(() => 'gone'))) return
    await delay(FREEZE_POLL_MS)
  }
}

/** Thaws a group; one already removed has nothing to thaw. */
export async function thaw({ version, dir }: NonNullable<TaskGroup['freezer']>) {
  const [control, value] = version === 1 ? ['freezer.state', 'THAWED'] : ['cgroup.freeze', '0']
  await writeFile(join(dir, control), value).catch(() => {})
}

/**
 * The cgroup of process `pid`, provided its path names `mustName` (a container's id: a pid the
 * engine reported from another PID namespace is some other process here). Undefined when it does
 * not, or when its folders are not visible under /sys/fs/cgroup.
 */
export async function groupOfProcess(pid: number, mustName: string): Promise<TaskGroup | undefined> {
  const text = await readFile(`/proc/${pid}/cgroup`, 'utf8').catch(() => '')
  const paths = new Map<string, string>()
  for (const line of text.split('\n')) {
    const [, controllers, ...rest] = line.split(':')
    const path = rest.join(':')
    if (controllers === undefined || !path.includes(mustName)) continue
    for (const controller of controllers.split(',')) paths.set(controller || 'unified', path)
  }
  const pids = paths.get('pids')
  if (pids !== undefined && existsSync(join(ROOT, 'pids', pids, 'tasks'))) {
    const freezer = paths.get('freezer')
    const freezerDir = freezer !== undefined ? join(ROOT, 'freezer', freezer) : undefined
    return {
      threads: join(ROOT, 'pids', pids, 'tasks'),
      processes: join(ROOT, 'pids', pids, 'cgroup.procs'),
      ...(freezerDir && existsSync(join(freezerDir, 'freezer.state'))
        ? { freezer: { version: 1 as const, dir: freezerDir } }
        : {}),
    }
  }
  const unified = paths.get('unified')
  if (unified !== undefined && existsSync(join(ROOT, unified, 'cgroup.threads')))
    return v2Group(join(ROOT, unified))
  return undefined
}

/** A v2 group's threads and freezer (kernels since 5.2 have `cgroup.freeze`). */
export const v2Group = (dir: string): TaskGroup => ({
  threads: join(dir, 'cgroup.threads'),
  processes: join(dir, 'cgroup.procs'),
  ...(existsSync(join(dir, 'cgroup.freeze')) ? { freezer: { version: 2 as const, dir } } : {}),
})
