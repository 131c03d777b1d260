/**
 * The MCP server's rate limit is per token and per request. A JSON-RPC batch puts up to 100 tool
 * calls in one request, so a member's script could make 100 times the calls the limit allows
 * (here: 50 jobs in one request on a token allowed 5 requests a minute). Batches are refused
 * (decision 0360): every tool call is a request of its own and counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp
let team: Team
beforeAll(async () => {
  app = await startTestApp({ env: { MCP_RATE_LIMIT_PER_MINUTE: '5' } })
  team = await createTeam(app)
})
afterAll(() => app?.close())

const mcp = (token: string, body: unknown) =>
  fetch(`${app.baseUrl}/_agent-native/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(body),
  })

const createJob = (i: number) => ({
  jsonrpc: '2.0',
  id: i,
  method: 'tools/call',
  params: {
    name: 'create_job',
    arguments: { name: `batch-${i}`, schedule: '0 7 * * *', instructions: `Job ${i} of a batch` },
  },
})

describe('a JSON-RPC batch to the MCP server', () => {
  it('is refused whole: one request cannot make more tool calls than the token’s limit allows', async () => {
    const made = await team.creator.client.post('/_agent-native/access-tokens', {
      name: 'script',
      scopes: ['jobs:read', 'jobs:write'],
    })
    expect(made.status).toBe(201)
    const token = made.body.token as string

    const batch = await mcp(
      token,
      Array.from({ length: 50 }, (_, i) => createJob(i)),
    )
    expect(batch.status).toBe(400)
    const answer = await batch.json()
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
    expect(answer.error.message).toMatch(/batch/i)

    // Nothing of it ran.
    const jobs = await team.creator.client.get('/_agent-native/jobs')
    expect(jobs.status).toBe(200)
    expect(jobs.body.jobs.filter((job: { name: string }) => job.name.startsWith('batch-'))).toEqual([])

    // One call per request still works, and each counts against the limit.
    const one = await mcp(token, createJob(0))
    expect(one.status).toBe(200)
    expect((await one.json()).result.isError).toBe(false)
  })
})
