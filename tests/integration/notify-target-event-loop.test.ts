/**
 * A job's notify targets are a member's text, checked by a regular expression on the server's one
 * event loop. Its address part backtracked quadratically: both halves of the domain took dots, so
 * `email:a@`, 100,000 dots and `@` (one 100 kB string in a 256 KiB JSON body) held the loop for
 * about eleven seconds. The server runs in its own process; the test asks /_agent-native/health
 * again and again while the body is checked and needs every answer within the hang guard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import type { SpawnedServer } from '#tests/support/spawn-server.ts'
import { HANG_GUARD_MS, healthWhile, spawnTarget } from '#tests/support/health-probe.ts'

let server: SpawnedServer
let mallory: ApiClient

beforeAll(async () => {
  ;({ server, attacker: mallory } = await spawnTarget({
    name: 'Mallory Notify',
    email: 'mallory-notify@example.com',
  }))
}, 90_000)
afterAll(() => server?.stop())

describe('a notify target', () => {
  it('of 100,000 dots after email:a@ is refused, naming notify, while health answers', async () => {
    const target = `email:a@${'.'.repeat(100_000)}@`
    const attempt = mallory.post('/_agent-native/jobs', {
      name: 'hostile',
      schedule: '0 7 * * *',
      instructions: 'Go.',
      notify: { onFailure: [target] },
    })
    expect(await healthWhile(server.baseUrl, attempt, HANG_GUARD_MS)).toBeGreaterThan(0)
    const res = await attempt
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(/^notify\.onFailure\.0: must be at most 260 characters/)
  }, 60_000)
})
