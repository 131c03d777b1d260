/**
 * A container whose server died mid-command (a crash, a deploy) ran on for ever: killing the
 * docker CLI does not stop it. The reaper removes the ones past the deadline their label carries,
 * and only those. Real engine and image, as the other Docker tests.
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { dockerForTests } from '#tests/support/docker.ts'
import { containerRunArgs } from './docker.ts'
import { reapOverdueContainers } from './docker-reaper.ts'

const run = promisify(execFile)
const docker = await dockerForTests()
const started: string[] = []
const namePart = `clockwork-reaper-test-${randomBytes(4).toString('hex')}`

/** Starts `sleep 600` detached, with the flags and the deadline label the server gives a command. */
async function leftBehind(image: string, deadline: Date): Promise<string> {
  const name = `${namePart}-${randomBytes(6).toString('hex')}`
  const args = containerRunArgs({
    name,
    network: 'none',
    mounts: [],
    user: '65534:65534',
    memory: '64m',
    cpus: '1',
    pidsLimit: 16,
    workdir: '/tmp',
    deadline,
  })
  // `docker run -d`: nobody waits for it, as after its server died.
  await run('docker', [args[0]!, '-d', ...args.slice(1), image, 'sleep', '600'], { timeout: 60_000 })
  started.push(name)
  return name
}

const runningNames = async () =>
  (await run('docker', ['ps', '--format', '{{.Names}}'], { timeout: 20_000 })).stdout.split('\n')

afterAll(async () => {
  if (started.length) await run('docker', ['rm', '--force', ...started]).catch(() => {})
})

describe.skipIf(!docker.ok)(`the container reaper${docker.ok ? '' : ` (skipped: ${docker.why})`}`, () => {
  it("removes a member's command its dead server left running past its deadline, and nothing else", async () => {
    const image = docker.ok ? docker.image : ''
    // Both deadlines lie ahead and the sweep is asked as of a moment between them, over this
    // test's containers only: every server other test files start sweeps the shared engine too,
    // and took a container already overdue before this test listed it (a full `npm test` failed so).
    const start = Date.now()
    const overdue = await leftBehind(image, new Date(start + 30 * 60_000))
    const current = await leftBehind(image, new Date(start + 90 * 60_000))
    expect(await runningNames()).toEqual(expect.arrayContaining([overdue, current]))

    const reaped = await reapOverdueContainers('docker', start + 60 * 60_000, namePart)
    expect(reaped).toContain(overdue)
    expect(reaped).not.toContain(current)
    const after = await runningNames()
    expect(after).not.toContain(overdue)
    expect(after).toContain(current)
  }, 120_000)
})
