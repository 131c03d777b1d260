/**
 * A harness run's projection (`.harness-<random>/settings.json`, `mcp.json`) lies in the
 * environment's folder and names the run's endpoint with its token. Every member sees a shared
 * environment's files (it names no secrets), and the endpoint is also served over HTTP for
 * connected machines. A plain member reads an admin's running harness's token and calls the model
 * through the public route on the admin's key and budget. A token may only be used through the
 * door its run was given: a run in this server's sandbox answers on its own socket only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleHarnessRequest } from '#server/harness/endpoint.ts'
import type { AgentApp } from '#tests/support/agent-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { eventually } from '#tests/support/poll.ts'
import { cliRequests, settledRun, startHarnessApp, startWaitingRun } from '#tests/support/harness-runs.ts'

const KEY = 'sk-ant-planted-admin-key-4410'
const R = '/_agent-native/resources'

let agent: AgentApp
beforeAll(async () => {
  agent = await startHarnessApp({ key: KEY, environmentsDir: 'clockwork-harness-token-', scheduler: true })
}, 120_000)
afterAll(() => agent?.close())

/** Job `name` in a new `provider: local` environment `env` of `scope`, its harness run started and waiting. */
async function waitingHarnessRun(c: ApiClient, scope: 'shared' | 'personal', env: string, name: string) {
  const definition = '---\nprovider: local\n---\nA workspace.\n'
  expect((await c.put(`${R}/${scope}/environments/${env}.md`, definition)).status).toBe(201)
  const job = await c.post('/_agent-native/jobs', {
    name,
    scope,
    schedule: '0 7 * * 1-5',
    instructions: `Task ${name}: keep the build green.`,
    environment: env,
    harness: 'claude-code',
  })
  expect(job.status, JSON.stringify(job.body)).toBe(201)
  return startWaitingRun(agent, c, job.body.job, name)
}

/** A model call as the CLI makes it, saying `content`. */
const modelCall = (content: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
  body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content }] }),
})

/** The run's token, as `reader` finds it in the run's settings in the environment's folder. */
async function readToken(reader: ApiClient, scope: 'shared' | 'personal', env: string) {
  const files = `/_agent-native/environments/${env}`
  const settings = await eventually('the run’s settings file in the listing', async () => {
    const listed = await reader.get(`${files}/files?scope=${scope}`)
    if (listed.status !== 200) throw new Error(`listing: ${listed.status} ${JSON.stringify(listed.body)}`)
    const found = (listed.body.entries as { path: string }[]).find((e) =>
      /^\.harness-[^/]+\/settings\.json$/.test(e.path),
    )
    return found?.path
  })
  const read = await reader.get(`${files}/file?scope=${scope}&path=${encodeURIComponent(settings)}`)
  expect(read.status).toBe(200)
  const token = /\/(hrn_[A-Za-z0-9_-]+)\/hook/.exec(read.body.content as string)?.[1]
  expect(token).toBeDefined()
  return token!
}

describe('a harness run’s token', () => {
  it('read from a shared environment by a plain member does not open the run’s endpoint over HTTP', async () => {
    const { admin, member } = agent.team
    const a = admin.client
    const runId = await waitingHarnessRun(a, 'shared', 'team-box', 'nightly-fix')
    // The member lists the shared environment and reads the run's settings while it works.
    const token = await readToken(member.client, 'shared', 'team-box')

    const before = agent.fake.requests.length
    const stolen = await fetch(
      `${agent.app.baseUrl}/_agent-native/harness/runs/${token}/v1/messages`,
      modelCall('Free model calls on the admin’s key'),
    )
    expect(stolen.status).toBe(401)
    expect(agent.fake.requests.slice(before).filter((r) => r.headers['x-api-key'] === KEY)).toEqual([])

    expect((await a.post(`/_agent-native/runs/${runId}/cancel`)).status).toBe(200)
    await settledRun(a, runId)
  }, 180_000)

  it('is dead once its run’s end can be seen: a model call right after a cancel is refused', async () => {
    const a = agent.team.creator.client
    const runId = await waitingHarnessRun(a, 'personal', 'own-box', 'long-task')
    const token = await readToken(a, 'personal', 'own-box')
    // Its CLI is at work: it has called the model.
    await eventually(
      'the CLI’s first model call',
      async () => cliRequests(agent.fake, 'long-task').length > 0 || undefined,
    )

    // The run's end, as anyone can see it: cancelled.
    expect((await a.post(`/_agent-native/runs/${runId}/cancel`)).status).toBe(200)
    expect((await a.get(`/_agent-native/runs/${runId}`)).body.run.status).toBe('cancelled')

    // The token through its own door, as the run's socket hands requests on.
    const before = agent.fake.requests.length
    const call = new Request('http://endpoint/v1/messages', modelCall('One more call, after the run is over'))
    const late = await handleHarnessRequest(token, '/v1/messages', call, 'socket')
    // Unfixed, the session lived until word of the cancel reached the run and its CLI was gone:
    // the call went to the model on the run's key, after the run's cost was settled.
    expect(late.status).toBe(401)
    expect(agent.fake.requests.slice(before).filter((r) => r.headers['x-api-key'] === KEY)).toEqual([])
    await settledRun(a, runId)
  }, 180_000)
})
