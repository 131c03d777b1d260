/**
 * The MCP server on the embedded default (PGlite): tokens (a text[] of scopes), the per-token rate
 * limit's window arithmetic and a job write through a token work there as on PostgreSQL.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { connectMcp } from '#tests/support/mcp-client.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp

beforeAll(async () => {
  app = await startTestApp({ pglite: true, env: { MCP_RATE_LIMIT_PER_MINUTE: '5' } })
}, 120_000)
afterAll(() => app?.close())

it('makes a token, creates a job through MCP and limits the token, on PGlite', async () => {
  const ana = app.client()
  await ana.signUp('Ana Lima', 'ana-mcp@example.com')
  const made = await ana.post('/_agent-native/access-tokens', {
    name: 'laptop',
    scopes: ['jobs:write', 'jobs:read'],
  })
  expect(made.status).toBe(201)
  expect(made.body.summary.scopes).toEqual(['jobs:read', 'jobs:write'])
  const client = await connectMcp(app.baseUrl, made.body.token, 'pglite-test')
  const created = await client.callTool({
    name: 'create_job',
    arguments: { name: 'on-pglite', schedule: '0 7 * * *', instructions: 'Go.' },
  })
  expect(created.isError).toBeFalsy()
  const jobs = await ana.get('/_agent-native/jobs')
  expect(jobs.body.jobs.map((j: { name: string }) => j.name)).toEqual(['on-pglite'])
  // Five requests a minute, and connecting and the call used most of them: within a few more the
  // token is refused (how many the client spent connecting is its business, hence no exact count).
  let refusal: unknown
  for (let i = 0; i < 5 && !refusal; i++)
    refusal = await client.listTools().then(
      () => null,
      (err: unknown) => err,
    )
  expect(String(refusal)).toMatch(/rate_limited/)
  await client.close()
}, 120_000)
