/**
 * The attack (an outside review of the disk watch's exception for cleanups): over its quota an
 * environment runs only commands that free space, and the watch let such a command run while the
 * folder stayed below the size it began with. That size was the known usage, which counts a sparse
 * file's apparent size, while the watch counts blocks: `truncate -s` (a cleanup) made a 4 MiB
 * environment "hold" 240 MiB in no blocks, and a "cleanup" after it (`find` writing through a
 * redirect, file after file) wrote real data far past the quota, unstopped.
 *
 * The safe outcome: nothing grows the folder. A command writing a file (a redirect, find's
 * -fprint) is no cleanup, so it is refused over the quota; and a cleanup's allowance is counted in
 * blocks, as the watch counts (`server/environments/files/disk-watch.test.ts`).
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'

const E = '/_agent-native/environments'
const R = '/_agent-native/resources'
const MiB = 1024 * 1024
let agent: AgentApp

beforeAll(async () => {
  agent = await startAgentApp({
    key: 'sk-ant-sparse-attack',
    environmentsDir: 'clockwork-envs-sparse-attack-',
    env: { ENVIRONMENT_MAX_DISK_MB: '4', ORG_MAX_DISK_MB: '1000' },
  })
}, 240_000)
afterAll(() => agent?.close())

it('an environment made to look full with sparse files is not grown by a "cleanup" that writes', async () => {
  // Anyone who signs up: the owner of a workspace of their own.
  const mallory = agent.team.outsider.client
  const run = (command: string) => mallory.post(`${E}/sparse/commands`, { command, timeoutSeconds: 60 })
  const put = await mallory.put(`${R}/personal/environments/sparse.md`, '---\nlimits: { diskMb: 4 }\n---\n')
  expect(put.status, JSON.stringify(put.body)).toBe(201)

  // 60 sparse files of 4 MiB: no blocks, 240 MiB apparent, and the environment over its quota.
  const names = Array.from({ length: 60 }, (_, i) => `s${i}`).join(' ')
  const sparse = await run(`truncate -s 4M ${names}`)
  expect(sparse.status, JSON.stringify(sparse.body)).toBe(200)
  expect(sparse.body.result.disk.overQuota).toBe(true)

  // A "cleanup" (find, with its output redirected) writing file after file.
  const fill = Array.from(
    { length: 40 },
    (_, i) => `while find / -xdev >> r${i} 2>/dev/null; do find / -xdev >> r${i}; done`,
  ).join('; ')
  const filled = await run(fill)
  expect(filled.status, JSON.stringify(filled.body).slice(0, 1000)).toBe(507)
  expect(filled.body.error.code).toBe('over_quota')

  const measured = await run('du -s -B1 .')
  const blocks = Number(/^(\d+)/.exec(measured.body.result.stdout.trim())?.[1])
  expect(blocks).toBeLessThan(20 * MiB)
}, 240_000)
