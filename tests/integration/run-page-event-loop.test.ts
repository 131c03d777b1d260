/**
 * A run's page shows its transcript, whose first message is the job's instructions: a member's
 * text of up to 60,000 characters. The page was rendered on the server, Markdown and all, and
 * Markdown's parser is quadratic on some texts: `a*` 30,000 times held the server's loop for about
 * half a minute for whoever opened the page. The server runs in its own process; the test asks
 * /_agent-native/health again and again while the page is asked for and needs every answer within
 * the hang guard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import { runNow } from '#tests/support/runs.ts'
import type { SpawnedServer } from '#tests/support/spawn-server.ts'
import { startSpawnedAgentServers, type SpawnedAgentServers } from '#tests/support/spawned-agent-servers.ts'
import { HANG_GUARD_MS, healthWhile } from '#tests/support/health-probe.ts'

let agent: SpawnedAgentServers
let server: SpawnedServer
let member: ApiClient

beforeAll(async () => {
  agent = await startSpawnedAgentServers({
    key: 'sk-ant-run-page-loop-0001',
    dirPrefix: 'clockwork-run-page-',
    instances: ['pages'],
    person: { name: 'Mallory', email: 'mallory-run-page@example.com' },
    env: { SCHEDULER_ENABLED: 'true' },
  })
  server = agent.servers[0]!
  member = agent.clients[0]!
}, 240_000)
afterAll(() => agent?.close())

describe("a run's page", () => {
  it('with instructions that are hard Markdown is served while health answers', async () => {
    const instructions = 'a*'.repeat(30_000)
    const made = await member.post('/_agent-native/jobs', {
      name: 'stars',
      schedule: '0 7 * * *',
      instructions,
    })
    expect(made.status).toBe(201)
    const jobId = made.body.job.id
    const { run } = await runNow(member, jobId)
    const page = fetch(`${server.baseUrl}/jobs/${jobId}/runs/${run.id}`, {
      headers: { cookie: member.cookieHeader },
    }).then(async (res) => ({ status: res.status, html: await res.text() }))
    expect(await healthWhile(server.baseUrl, page, HANG_GUARD_MS)).toBeGreaterThan(0)
    const { status, html } = await page
    expect(status).toBe(200)
    expect(html).toContain('a*a*a*') // the instructions are on the page, as text
  }, 120_000)
})
