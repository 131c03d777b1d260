/**
 * Refusals are shown as refusals. A command whose connection the sandbox's network proxy refused
 * (curl prints the proxy's "blocked" page and exits 0) is reported as network refused in the
 * command result, the environment audit and the agent's tool result; and a run whose agent was
 * refused commands (by the policy or the network) says how many, on the run and on its job, which
 * the jobs list can filter on. Real Postgres, the real sandbox and scheduler, the fake model.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import { waitForRun } from '#tests/support/runs.ts'

const KEY = 'sk-ant-deployment-refusals-0026'
const R = '/_agent-native/resources'
// Denies one command outright; everything else runs (example.com is in no allowlist).
const GUARDED = '---\npolicy:\n  commands:\n    deny: ["rm *"]\n---\nGuarded.\n'

let agent: AgentApp

beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, environmentsDir: 'clockwork-refusals-', scheduler: true })
  const c = agent.team.creator.client
  expect((await c.put(`${R}/personal/environments/guarded.md`, GUARDED)).status).toBe(201)
})
afterAll(() => agent?.close())

async function createJob(c: ApiClient, name: string) {
  const job = await c.post('/_agent-native/jobs', {
    name,
    schedule: '0 7 1 1 *',
    instructions: `Do the ${name} work.`,
    environment: 'guarded',
  })
  expect(job.status).toBe(201)
  return job.body.job as { id: string }
}

const auditOf = (runId: string) =>
  queryRows<{ subject: string; decision: string; reason: string | null; exit_code: number | null }>(
    agent.app.server.db.db,
    sql`select subject, decision, reason, exit_code from environment_audit
        where run_id = ${runId} and kind = 'command' order by id`,
  )

describe('a connection the network allowlist refused', () => {
  it('is a refusal in the person’s command result and the audit, not a success', async () => {
    const c = agent.team.creator.client
    const res = await c.post('/_agent-native/environments/guarded/commands', {
      command: 'curl -sS http://example.com/',
    })
    expect(res.status).toBe(200)
    // curl itself is content: it printed the proxy's refusal page and exited 0.
    expect(res.body.result.exitCode).toBe(0)
    expect(res.body.result.stdout).toContain('blocked by network allowlist')
    expect(res.body.result.networkBlocked).toEqual(['example.com:80'])
    expect(res.body.decision).toBe('network_blocked')
    const [row] = await queryRows<{ decision: string; reason: string }>(
      agent.app.server.db.db,
      sql`select decision, reason from environment_audit where subject = 'curl -sS http://example.com/'`,
    )
    expect(row).toEqual({
      decision: 'network_blocked',
      reason: expect.stringMatching(
        /^Network refused: example\.com:80 is not in the environment's allowlist/,
      ),
    })
  })

  it('is reported to the agent, counted on the run, and a command that reached nothing blocked is not', async () => {
    const c = agent.team.creator.client
    const job = await createJob(c, 'fetcher')
    agent.fake.reply(
      toolUse('run_command', { command: 'curl -sS https://example.com/ -o page.html; echo done' }),
      toolUse('run_command', { command: 'echo fine' }),
      { text: 'Fetched it.' },
    )
    const started = await c.post(`/_agent-native/jobs/${job.id}/run`)
    const run = await waitForRun(c, started.body.run.id)
    expect(run.run).toMatchObject({ status: 'success', deniedCommands: 1 })
    const results = (run.transcript as { parts: any[] }[])
      .flatMap((m) => m.parts)
      .filter((p) => p.type === 'tool-run_command')
      .map((p) => p.output)
    expect(results[0]).toMatchObject({
      ok: true,
      decision: 'network_blocked',
      networkBlocked: ['example.com:443'],
      refusal: expect.stringContaining('example.com:443'),
    })
    expect(results[1]).toMatchObject({ ok: true, decision: 'allowed', stdout: 'fine\n' })
    expect(results[1].networkBlocked).toBeUndefined()
    expect((await auditOf(started.body.run.id)).map((a) => a.decision)).toEqual([
      'network_blocked',
      'allowed',
    ])
  })
})

describe('a run whose only command was denied', () => {
  it('says so on the run and its job, and the jobs list filters on it until a clean run', async () => {
    const c = agent.team.creator.client
    const job = await createJob(c, 'cleaner')
    const clean = await createJob(c, 'tidy')
    agent.fake.reply(toolUse('run_command', { command: 'rm -f old.log' }), { text: 'Could not clean up.' })
    const started = await c.post(`/_agent-native/jobs/${job.id}/run`)
    const run = await waitForRun(c, started.body.run.id)
    // The run itself went fine (the model answered): it succeeded, with one command denied.
    expect(run.run).toMatchObject({ status: 'success', deniedCommands: 1 })
    expect(await auditOf(started.body.run.id)).toEqual([
      expect.objectContaining({ subject: 'rm -f old.log', decision: 'denied' }),
    ])
    const history = await c.get(`/_agent-native/jobs/${job.id}/runs`)
    expect(history.body.runs[0]).toMatchObject({ id: started.body.run.id, deniedCommands: 1 })
    expect((await c.get(`/_agent-native/jobs/${job.id}`)).body.job).toMatchObject({
      lastStatus: 'success',
      lastDeniedCommands: 1,
    })

    const denied = await c.get('/_agent-native/jobs?status=denied')
    expect(denied.status).toBe(200)
    const names = (body: { jobs: { name: string }[] }) => body.jobs.map((j) => j.name)
    expect(names(denied.body)).toContain('cleaner')
    expect(names(denied.body)).not.toContain('tidy')
    expect(clean.id).toBeTruthy()

    // A later run that was refused nothing clears the job's flag (it describes the last run).
    agent.fake.reply(toolUse('run_command', { command: 'echo cleaned' }), { text: 'Cleaned.' })
    const again = await c.post(`/_agent-native/jobs/${job.id}/run`)
    expect((await waitForRun(c, again.body.run.id)).run).toMatchObject({
      status: 'success',
      deniedCommands: 0,
    })
    expect(names((await c.get('/_agent-native/jobs?status=denied')).body)).not.toContain('cleaner')
    // The earlier run keeps its count.
    expect((await c.get(`/_agent-native/runs/${started.body.run.id}`)).body.run.deniedCommands).toBe(1)
  })

  it('rejects an unknown status filter, naming the field', async () => {
    const res = await agent.team.creator.client.get('/_agent-native/jobs?status=refusedish')
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ field: 'status', message: expect.stringContaining('denied') })
  })
})
