/**
 * One process serves every tenant, so a promise rejection nobody handled must not end it (decision
 * 0381): a machine client's malformed message once did, for everyone. The production server, with a
 * preload that makes such a rejection on a signal, must log it and keep answering.
 */
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { sharedPostgres, spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts'

const preload = path.resolve(import.meta.dirname, 'fixtures/unhandled-rejection/reject-on-signal.mjs')

let server: SpawnedServer
beforeAll(async () => {
  server = await spawnServer(
    { SCHEDULER_ENABLED: 'false', LOG_LEVEL: 'error', NODE_OPTIONS: `--import=${preload}` },
    sharedPostgres(inject('postgresUrl')),
  )
}, 120_000)
afterAll(() => server?.stop())

describe('a promise rejection nobody handled', () => {
  it('is logged as an error, and the server keeps serving', async () => {
    process.kill(server.pid, 'SIGUSR2')
    await vi.waitFor(() => expect(server.output()).toContain('boom from a request nobody handled'), {
      timeout: 10_000,
    })
    expect(server.output()).toContain('a promise rejection nobody handled')
    expect((await fetch(`${server.baseUrl}/_agent-native/health`)).status).toBe(200)
  })
})
