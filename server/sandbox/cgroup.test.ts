/**
 * Boxes on this machine's real cgroups (root, cgroup v1 here): a process started with a box's
 * prefix is in it, the box caps its processes, concurrent uses share one box, and the last release
 * kills what is left and removes it.
 */
import { execFile, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { cgroupSupport, openBox } from './cgroup.ts'

const layout = await cgroupSupport()
const run = promisify(execFile)

describe.runIf(typeof layout !== 'string')('cgroup boxes (root with cgroups)', () => {
  const parents = typeof layout === 'string' ? [] : layout.parents

  it('puts a command in its box and caps how many processes it may start', async () => {
    const box = (await openBox('test-cap', { processes: 10, memoryBytes: 64 * 1024 * 1024 }))!
    try {
      const script =
        'grep -E "pids|memory|^0::" /proc/self/cgroup; (for i in $(seq 30); do sleep 20 >/dev/null 2>&1 & done) 2>/dev/null; n=0; for p in $(cat /sys/fs/cgroup/pids/clockwork/test-cap/cgroup.procs 2>/dev/null); do n=$((n+1)); done; echo procs $n'
      const argv = [...box.prefix, '/bin/sh', '-c', script]
      const { stdout } = await run(argv[0]!, argv.slice(1))
      expect(stdout).toContain('/clockwork/test-cap')
      if (typeof layout === 'object' && layout.version === 1) {
        const procs = Number(/procs (\d+)/.exec(stdout)?.[1])
        expect(procs).toBeGreaterThan(0)
        expect(procs).toBeLessThanOrEqual(10)
      }
    } finally {
      await box.release()
    }
    for (const parent of parents) expect(existsSync(`${parent}/test-cap`)).toBe(false)
  })

  it('is shared by concurrent uses and removed, with what is left in it, by the last', async () => {
    const first = (await openBox('test-shared', { processes: 20, memoryBytes: 64 * 1024 * 1024 }))!
    const second = (await openBox('test-shared', { processes: 20, memoryBytes: 64 * 1024 * 1024 }))!
    const argv = [...first.prefix, 'sleep', '60']
    const straggler = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' })
    const procs = `${parents[0]}/test-shared/cgroup.procs`
    await expect.poll(() => readFileSync(procs, 'utf8').trim()).toBe(String(straggler.pid))
    await first.release()
    expect(existsSync(`${parents[0]}/test-shared`)).toBe(true) // the second use still holds it
    const exited = new Promise((resolve) => straggler.on('exit', (_code, signal) => resolve(signal)))
    await second.release()
    expect(await exited).toBe('SIGKILL')
    for (const parent of parents) expect(existsSync(`${parent}/test-shared`)).toBe(false)
  })
})

it('says why when this server cannot make boxes, or gives the layout', () => {
  if (typeof layout === 'string') expect(layout).toMatch(/cgroup|Linux/)
  else expect(layout.parents.length).toBe(layout.version === 1 ? 2 : 1)
})
