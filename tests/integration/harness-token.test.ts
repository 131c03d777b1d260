/**
 * A harness run's projection (`.harness-<random>/settings.json`, `mcp.json`) lies in the
 * environment's folder and names the run's endpoint with its token. Every member sees a shared
 * environment's files (it names no secrets), and the endpoint is also served over HTTP for
 * connected machines. A plain member reads an admin's running harness's token and calls the model
 * through the public route on the admin's key and budget. A token may only be used through the
 * door its run was given: a run in this server's sandbox answers on its own socket only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgentApp } from '#tests/support/agent-app.ts'
import { eventually } from '#tests/support/poll.ts'
import { settledRun, startHarnessApp, startWaitingRun } from '#tests/support/harness-runs.ts'

const KEY = 'sk-ant-planted-admin-key-4410'
const R = '/_agent-native/resources'

let agent: AgentApp
beforeAll(async () => {
  agent = await startHarnessApp({ key: KEY, environmentsDir: 'clockwork-harness-token-', scheduler: true })
}, 120_000)
afterAll(() => agent?.close())

describe('a harness run’s token', () => {
  it('read from a shared environment by a plain member does not open the run’s endpoint over HTTP', async () => {
    const { admin, member } = agent.team
    const a = admin.client
    const definition = '---\nprovider: local\n---\nThe team’s workspace.\n'
    expect((await a.put(`${R}/shared/environments/team-box.md`, definition)).status).toBe(201)
    const job = await a.post('/_agent-native/jobs', {
      name: 'nightly-fix',
      scope: 'shared',
      schedule: '0 7 * * 1-5',
      instructions: 'Task nightly-fix: keep the build green.',
      environment: 'team-box',
      harness: 'claude-code',
    })
    expect(job.status, JSON.stringify(job.body)).toBe(201)
    const runId = await startWaitingRun(agent, a, job.body.job, 'nightly-fix')

    // The member lists the shared environment and reads the run's settings while it works.
    const m = member.client
    const files = '/_agent-native/environments/team-box'
    const settings = await eventually('the run’s settings file in the listing', async () => {
      const listed = await m.get(`${files}/files?scope=shared`)
      if (listed.status !== 200) throw new Error(`listing: ${listed.status} ${JSON.stringify(listed.body)}`)
      const found = (listed.body.entries as { path: string }[]).find((e) =>
        /^\.harness-[^/]+\/settings\.json$/.test(e.path),
      )
      return found?.path
    })
    const read = await m.get(`${files}/file?scope=shared&path=${encodeURIComponent(settings)}`)
    expect(read.status).toBe(200)
    const token = /\/(hrn_[A-Za-z0-9_-]+)\/hook/.exec(read.body.content as string)?.[1]
    expect(token).toBeDefined()

    const before = agent.fake.requests.length
    const stolen = await fetch(`${agent.app.baseUrl}/_agent-native/harness/runs/${token}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Free model calls on the admin’s key' }],
      }),
    })
    expect(stolen.status).toBe(401)
    expect(agent.fake.requests.slice(before).filter((r) => r.headers['x-api-key'] === KEY)).toEqual([])

    expect((await a.post(`/_agent-native/runs/${runId}/cancel`)).status).toBe(200)
    await settledRun(a, runId)
  }, 180_000)
})
