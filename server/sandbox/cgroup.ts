/**
 * Boxes: one cgroup per environment (or per run-code / cli call) with a process cap (`pids.max`)
 * and a memory cap on the sum of its processes, whatever uid they run as. A uid's RLIMIT_NPROC
 * counts every process of that uid on the host, so with one sandbox uid one tenant's processes
 * used up everyone's; a box counts only its own. Memory is capped for the whole box, not per
 * process (RLIMIT_AS), and a private tmpfs written inside it is charged to it too.
 *
 * Works with cgroup v1 (`pids` and `memory` hierarchies, as on this project's machines, and
 * `freezer` when mounted) and v2 (both controllers enabled), when this process may create cgroups
 * (root, normally): boxes sit in `clockwork/` under the server's own cgroup of each hierarchy (v1)
 * or under the v2 root.
 * Elsewhere `cgroupSupport()` answers why not and callers fall back to per-uid rlimits.
 *
 * A command joins its box before it drops privileges, through a tiny `sh` in front of it that
 * writes its own pid into each `cgroup.procs` and then execs the command; when it cannot join,
 * it exits 125 instead of running unboxed.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { type TaskGroup, thaw, v2Group } from './cgroup-group.ts'

const ROOT = '/sys/fs/cgroup'

/** Where boxes are made: the parent folder per hierarchy, and the files a limit is written to. */
export type CgroupLayout = {
  version: 1 | 2
  /** Parent folders of the boxes (v1: one in `pids`, one in `memory`; v2: one). */
  parents: string[]
  /** v1: the parent folder in the `freezer` hierarchy, when one is mounted (v2 freezes in its own). */
  freezer?: string
}

export type BoxLimits = {
  /** Processes (tasks, threads included) that may exist in the box at once. */
  processes: number
  /** Bytes of memory (page cache and tmpfs included) its processes may use together. */
  memoryBytes: number
}

export type Box = {
  /** argv to put in front of the command (before any privilege drop): joins the box, then execs. */
  prefix: string[]
  /** Its processes as a reader sees them, frozen while it reads (the disk watch's held files). */
  group: TaskGroup
  /** Drops this use of the box; the last one kills what is left in it and removes it. */
  release(): Promise<void>
}

/** The server's own path in a v1 hierarchy (`/proc/self/cgroup`), e.g. `/` or `/system.slice/x`. */
function ownPath(controller: string, lines: string[]): string | undefined {
  for (const line of lines) {
    const [, controllers, path] = line.split(':')
    if (controllers?.split(',').includes(controller)) return path
  }
  return undefined
}

async function tryLayout(): Promise<CgroupLayout | string> {
  if (process.platform !== 'linux') return 'cgroups need Linux'
  const lines = readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n')
  const pids = ownPath('pids', lines)
  const memory = ownPath('memory', lines)
  if (pids !== undefined && memory !== undefined) {
    const parents = [join(ROOT, 'pids', pids, 'clockwork'), join(ROOT, 'memory', memory, 'clockwork')]
    for (const parent of parents) await mkdir(parent, { recursive: true })
    const frozen = ownPath('freezer', lines)
    // Optional: without it a box is read as it runs (cgroup-group.ts).
    const freezer =
      frozen === undefined
        ? undefined
        : await mkdir(join(ROOT, 'freezer', frozen, 'clockwork'), { recursive: true }).then(
            () => join(ROOT, 'freezer', frozen, 'clockwork'),
            () => undefined,
          )
    return { version: 1, parents, ...(freezer ? { freezer } : {}) }
  }
  if (existsSync(join(ROOT, 'cgroup.controllers'))) {
    const available = readFileSync(join(ROOT, 'cgroup.controllers'), 'utf8')
    if (!/\bpids\b/.test(available) || !/\bmemory\b/.test(available))
      return 'the cgroup v2 root lacks the pids or memory controller'
    const parent = join(ROOT, 'clockwork')
    await writeFile(join(ROOT, 'cgroup.subtree_control'), '+pids +memory')
    await mkdir(parent, { recursive: true })
    await writeFile(join(parent, 'cgroup.subtree_control'), '+pids +memory')
    return { version: 2, parents: [parent] }
  }
  return 'no pids and memory cgroup hierarchy is mounted'
}

let detected: Promise<CgroupLayout | string> | undefined

/**
 * The layout boxes use here, or why there are none (not root, no controllers, a read-only
 * /sys/fs/cgroup). Checked once per process by making and removing a box.
 */
export function cgroupSupport(): Promise<CgroupLayout | string> {
  detected ??= (async () => {
    try {
      const layout = await tryLayout()
      if (typeof layout === 'string') return layout
      const probe = `probe-${process.pid}-${randomBytes(4).toString('hex')}`
      await makeBox(layout, probe, { processes: 8, memoryBytes: 64 * 1024 * 1024 })
      await removeBox(layout, probe)
      return layout
    } catch (err) {
      return `cgroups cannot be created here (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`
    }
  })()
  return detected
}

const dirsOf = (layout: CgroupLayout, name: string) =>
  [...layout.parents, ...(layout.freezer ? [layout.freezer] : [])].map((parent) => join(parent, name))

/** The box `name`'s threads and freezer (v1: the `pids` folder lists them). */
function groupOf(layout: CgroupLayout, name: string): TaskGroup {
  const [first] = dirsOf(layout, name) as [string]
  if (layout.version === 2) return v2Group(first)
  return {
    threads: join(first, 'tasks'),
    processes: join(first, 'cgroup.procs'),
    ...(layout.freezer ? { freezer: { version: 1 as const, dir: join(layout.freezer, name) } } : {}),
  }
}

async function makeBox(layout: CgroupLayout, name: string, limits: BoxLimits) {
  const dirs = dirsOf(layout, name)
  for (const dir of dirs) await mkdir(dir, { recursive: true })
  if (layout.version === 1) {
    const [pids, memory] = dirs as [string, string]
    await writeFile(join(pids, 'pids.max'), String(limits.processes))
    await setV1Memory(memory, limits.memoryBytes)
  } else {
    const [dir] = dirs as [string]
    await writeFile(join(dir, 'pids.max'), String(limits.processes))
    await writeFile(join(dir, 'memory.max'), String(limits.memoryBytes))
    // Swap would let the box hold more than its limit.
    if (existsSync(join(dir, 'memory.swap.max'))) await writeFile(join(dir, 'memory.swap.max'), '0')
  }
  return dirs
}

/** v1 keeps memory ≤ memory+swap at every step: which of the two to write first depends on the direction. */
async function setV1Memory(dir: string, bytes: number) {
  const memsw = join(dir, 'memory.memsw.limit_in_bytes')
  const mem = join(dir, 'memory.limit_in_bytes')
  if (!existsSync(memsw)) return writeFile(mem, String(bytes))
  try {
    await writeFile(mem, String(bytes))
    await writeFile(memsw, String(bytes))
  } catch {
    await writeFile(memsw, String(bytes))
    await writeFile(mem, String(bytes))
  }
}

/** Kills whatever is still in the box, then removes it (a process takes a moment to leave). */
async function removeBox(layout: CgroupLayout, name: string) {
  // A frozen v1 process does not die of SIGKILL until it is thawed.
  const { freezer } = groupOf(layout, name)
  if (freezer) await thaw(freezer)
  for (const dir of dirsOf(layout, name)) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const procs = await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => '')
      for (const pid of procs.split('\n').filter(Boolean)) {
        try {
          process.kill(Number(pid), 'SIGKILL')
        } catch {
          // already gone
        }
      }
      try {
        await rmdir(dir)
        break
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (code === 'ENOENT') break
        if (code !== 'EBUSY') throw err
        await delay(20)
      }
    }
  }
}

// A box shared by concurrent commands of one environment lives while any of them runs; a new
// use waits for a removal under way, so it never joins a folder about to disappear.
const open = new Map<string, { uses: number; ready: Promise<string[]>; removed?: Promise<void> }>()

/**
 * Opens (or joins) the box `name` with `limits` (written again on each open: the latest wins).
 * @returns undefined when this server has no cgroups (cgroupSupport says why).
 */
export async function openBox(name: string, limits: BoxLimits): Promise<Box | undefined> {
  const layout = await cgroupSupport()
  if (typeof layout === 'string') return undefined
  let entry = open.get(name)
  while (entry?.removed) {
    await entry.removed
    entry = open.get(name)
  }
  if (!entry) {
    entry = { uses: 0, ready: makeBox(layout, name, limits) }
    open.set(name, entry)
  } else {
    entry.ready = entry.ready.then(() => makeBox(layout, name, limits))
  }
  entry.uses++
  const current = entry
  let released = false
  const release = async () => {
    if (released) return
    released = true
    if (--current.uses > 0) return
    current.removed = removeBox(layout, name)
      .catch(() => {}) // an empty folder left behind is reused by the next open
      .finally(() => open.delete(name))
    await current.removed
  }
  try {
    const dirs = await current.ready
    return {
      prefix: joinPrefix(dirs.map((dir) => join(dir, 'cgroup.procs'))),
      group: groupOf(layout, name),
      release,
    }
  } catch (err) {
    await release()
    throw err
  }
}

/** `sh -c` that writes its pid into each file, then execs the rest of its arguments. */
export function joinPrefix(procsFiles: string[]): string[] {
  const script =
    'for f in "$@"; do shift; [ "$f" = -- ] && break; echo $$ > "$f" || exit 125; done; exec "$@"'
  return ['/bin/sh', '-c', script, 'cgroup-join', ...procsFiles, '--']
}

/** A fresh box name for one call (run-code, cli). */
export const oneOffBoxName = (kind: string) => `${kind}-${process.pid}-${randomBytes(6).toString('hex')}`
