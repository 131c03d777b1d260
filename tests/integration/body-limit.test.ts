import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { bigUpload } from '#tests/support/big-upload.ts'
import { ApiClient } from '#tests/support/api-client.ts'
import { sharedPostgres, spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts'

// The attack from the security review: one unauthenticated 150 MB POST OOM-killed a 512 MiB
// instance, because the JSON reader and better-auth buffered whole bodies before any check. Now one
// limit at the express level answers 413 without holding more than the limit. Runs against the
// production server (needs `npm run build`).
let server: SpawnedServer
let cookie = ''
const MB = 1024 * 1024

beforeAll(async () => {
  server = await spawnServer({ SCHEDULER_ENABLED: 'false' }, sharedPostgres(inject('postgresUrl')))
  const client = new ApiClient(server.baseUrl)
  await client.signUp('Sam Sender', 'sam@example.com')
  cookie = client.cookieHeader
}, 90_000)
afterAll(() => server?.stop())

describe.each([
  ['/_agent-native/auth/sign-up/email', 'with Content-Length', false, false],
  ['/_agent-native/auth/sign-in/email', 'chunked', true, false],
  ['/_agent-native/jobs', 'with Content-Length', false, false],
  ['/_agent-native/agent/chat', 'chunked', true, false],
  ['/_agent-native/no-such-route', 'chunked', true, false],
  ['/jobs/new', 'with Content-Length (a page action)', false, false],
  ['/_agent-native/jobs', 'chunked, signed in', true, true],
  ['/_agent-native/resources/personal/notes/big.md', 'with Content-Length, signed in', false, true],
] as const)('a 200 MB POST to %s %s', (path, _how, chunked, signedIn) => {
  it('answers 413 JSON while the server grows by under 32 MB', async () => {
    const result = await bigUpload(server.baseUrl + path, {
      totalBytes: 200 * MB,
      chunked,
      serverPid: server.pid,
      headers: { origin: server.baseUrl, ...(signedIn ? { cookie } : {}) },
    })
    console.log(
      `${path} ${chunked ? 'chunked' : 'content-length'}: RSS +${result.peakRssGrowthMb.toFixed(1)} MB`,
    )
    expect(result.status).toBe(413)
    expect(JSON.parse(result.body)).toMatchObject({ error: { code: 'payload_too_large' } })
    expect(result.peakRssGrowthMb).toBeLessThan(32)
    // The instance is still up and answering.
    expect((await fetch(`${server.baseUrl}/_agent-native/health`)).status).toBe(200)
  }, 60_000)
})
