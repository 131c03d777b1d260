/**
 * A memory limit for the benchmarked server, as a 512 MiB machine would impose: a child memory
 * cgroup of the bench's own (cgroup v2 `memory.max`, or v1 `memory.limit_in_bytes` on hybrid
 * hosts). The server is started inside it and the kernel OOM-kills it if it goes over; the
 * cgroup's counters say whether that happened. Needs a writable cgroup tree (root, no systemd
 * needed); where there is none the bench says so and stops.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

export type MemoryCgroup = {
  dir: string
  /** Arguments that start `command` inside the cgroup: `sh -c 'echo $$ > procs; exec …'`. */
  wrap(command: string[]): string[]
  /** Peak usage (MiB) and OOM kills so far. */
  stats(): { peakMb: number; oomKills: number }
  remove(): void
}

function ownCgroup(): { dir: string; v2: boolean } {
  const lines = readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n')
  const v1 = lines.find((l) => l.split(':')[1]?.split(',').includes('memory'))
  if (v1 && existsSync('/sys/fs/cgroup/memory')) {
    return { dir: path.join('/sys/fs/cgroup/memory', v1.split(':')[2]!), v2: false }
  }
  const unified = lines.find((l) => l.startsWith('0::'))!
  return { dir: path.join('/sys/fs/cgroup', unified.slice(3)), v2: true }
}

export function createMemoryCgroup(name: string, limitMb: number): MemoryCgroup {
  const own = ownCgroup()
  const dir = path.join(own.dir, name)
  if (!existsSync(dir)) mkdirSync(dir)
  const bytes = String(limitMb * 2 ** 20)
  if (own.v2) writeFileSync(path.join(dir, 'memory.max'), bytes)
  else writeFileSync(path.join(dir, 'memory.limit_in_bytes'), bytes)
  const read = (file: string) => readFileSync(path.join(dir, file), 'utf8')
  return {
    dir,
    wrap: (command) => ['-c', `echo $$ > '${path.join(dir, 'cgroup.procs')}' && exec "$@"`, 'sh', ...command],
    stats: () => {
      if (own.v2) {
        const oom = /oom_kill (\d+)/.exec(read('memory.events'))?.[1]
        const peak = existsSync(path.join(dir, 'memory.peak')) ? Number(read('memory.peak')) : NaN
        return { peakMb: peak / 2 ** 20, oomKills: Number(oom ?? 0) }
      }
      const oom = /oom_kill (\d+)/.exec(read('memory.oom_control'))?.[1]
      return { peakMb: Number(read('memory.max_usage_in_bytes')) / 2 ** 20, oomKills: Number(oom ?? 0) }
    },
    remove: () => {
      try {
        rmdirSync(dir)
      } catch {
        // still has a process in it (the server did not exit); the kernel keeps it until it does
      }
    },
  }
}
