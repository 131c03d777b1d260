/**
 * A server running as root runs commands as the sandbox user, which must be able to enter every
 * folder above an environment. When ENVIRONMENTS_DIR lies under a folder closed to it (a 0700 home
 * or temporary folder), the first command failed with a 500 "Something went wrong" and the reason
 * only in the log. The person now gets a 503 that says what is wrong without the server's paths,
 * and the log names the folder and the fix. (A server that is not root runs commands as itself:
 * there is nothing to refuse, so this runs where the server runs as root, as in CI.)
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { environmentTemplate } from '#server/environments/definition/definition.ts'
import { ApiClient } from '#tests/support/api-client.ts'
import { sharedPostgres, spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts'

const asRoot = process.getuid?.() === 0
let closed: string
let server: SpawnedServer
let ana: ApiClient

describe.runIf(asRoot)('environments under a folder closed to the sandbox user', () => {
  beforeAll(async () => {
    closed = mkdtempSync(path.join(os.tmpdir(), 'clockwork-closed-')) // 0700, owned by root
    mkdirSync(path.join(closed, 'environments'))
    server = await spawnServer(
      { SCHEDULER_ENABLED: 'false', ENVIRONMENTS_DIR: path.join(closed, 'environments') },
      sharedPostgres(inject('postgresUrl')),
    )
    ana = new ApiClient(server.baseUrl)
    await ana.signUp('Ana Closed', 'ana-closed@example.com')
    const put = await ana.put(
      '/_agent-native/resources/personal/environments/box.md',
      environmentTemplate('box'),
    )
    expect(put.status).toBe(201)
  }, 180_000)
  afterAll(async () => {
    await server?.stop()
    if (closed) rmSync(closed, { recursive: true, force: true })
  })

  it('answer a command with a 503 that says why, and tell the operator where in the log', async () => {
    const res = await ana.post('/_agent-native/environments/box/commands?scope=personal', {
      command: 'echo hi',
    })
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe('environments_unavailable')
    expect(res.body.error.message).toContain('the folder they live in is closed')
    expect(res.body.error.message).not.toContain(closed)
    // The log line reaches the test through the server's stdout, maybe after the answer.
    await expect.poll(() => server.output()).toContain(`cannot enter ${closed};`)
    expect(server.output()).toContain('chmod o+x')
  }, 60_000)
})
