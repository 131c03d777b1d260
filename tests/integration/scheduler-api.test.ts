/**
 * The runs API over real HTTP: run now (202, edit permission, overlap, schedule untouched), a
 * job's history with paging, one run with its transcript, the scheduler status, and the job
 * file staying free of run state. A scheduler runs in-process against a fake
 * Anthropic server.
 */
import os from 'node:os'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { RunningScheduler } from '#server/scheduler/scheduler.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { waitForRun } from '#tests/support/runs.ts'
import type { Team } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'

let agent: AgentApp
let app: TestApp
let team: Team
let fake: FakeAnthropic
let scheduler: RunningScheduler
beforeAll(async () => {
  agent = await startAgentApp({
    key: 'sk-test',
    anyKey: true,
    fallback: { text: 'All done.' },
    scheduler: true,
  })
  ;({ app, team, fake } = agent)
  scheduler = agent.scheduler!
})
afterAll(() => agent?.close())

const RUN_KEYS = [
  'attempt',
  'deniedCommands',
  'error',
  'finishedAt',
  'durationMs',
  'id',
  'instance',
  'jobId',
  'reason',
  'scheduledFor',
  'startedAt',
  'status',
  'trigger',
  'usage',
].sort()

async function createJob(name: string, extra: Record<string, unknown> = {}) {
  const res = await team.creator.client.post('/_agent-native/jobs', {
    name,
    schedule: '0 7 * * *',
    instructions: `Instructions for ${name}`,
    scope: 'shared',
    ...extra,
  })
  expect(res.status).toBe(201)
  return res.body.job as { id: string; nextRun: string }
}

it('run now: 202 with the Run, executes with the transcript, and leaves the schedule alone', async () => {
  const job = await createJob('run-now')
  const res = await team.creator.client.post(`/_agent-native/jobs/${job.id}/run`)
  expect(res.status).toBe(202)
  expect(Object.keys(res.body.run).sort()).toEqual(RUN_KEYS)
  expect(res.body.run).toMatchObject({ jobId: job.id, trigger: 'manual', status: 'queued', attempt: 1 })
  expect(res.body.run.reason).toBe('run now by Cleo Creator')

  const { run, transcript } = await waitForRun(team.creator.client, res.body.run.id)
  expect(run).toMatchObject({ status: 'success', error: null, usage: { inputTokens: 12, outputTokens: 7 } })
  expect(run.instance).toBe(scheduler.instanceId)
  expect(run.durationMs).toBe(Date.parse(run.finishedAt) - Date.parse(run.startedAt))
  expect(transcript.map((m: any) => [m.role, m.parts.find((p: any) => p.type === 'text').text])).toEqual([
    ['user', 'Instructions for run-now'],
    ['assistant', 'All done.'],
  ])
  const after = (await team.creator.client.get(`/_agent-native/jobs/${job.id}`)).body.job
  expect(after.nextRun).toBe(job.nextRun)
  expect(after).toMatchObject({ lastStatus: 'success', lastRun: run.startedAt, lastError: null })

  // The job file is what a person writes: the run changed nothing in it (decision 0250).
  const file = await team.creator.client.request(
    'GET',
    '/_agent-native/resources/shared/jobs/run-now.md',
    undefined,
    {
      accept: 'text/markdown',
    },
  )
  expect(file.status).toBe(200)
  expect(file.body).toContain('schedule: "0 7 * * *"')
  expect(file.body).not.toMatch(/^(lastRun|lastStatus|lastError|nextRun|orgId):/m)
})

it('run now needs edit permission: 403 for a plain member on a shared job, 404 outside the org', async () => {
  const job = await createJob('guarded')
  expect((await team.member.client.post(`/_agent-native/jobs/${job.id}/run`)).status).toBe(403)
  expect((await team.outsider.client.post(`/_agent-native/jobs/${job.id}/run`)).status).toBe(404)
  expect((await team.admin.client.post(`/_agent-native/jobs/${job.id}/run`)).status).toBe(202)
  expect((await app.client().post(`/_agent-native/jobs/${job.id}/run`)).status).toBe(401)
  expect((await team.creator.client.get(`/_agent-native/jobs/${job.id}/run`)).status).toBe(405)
  // Members see the history; outsiders do not.
  expect((await team.member.client.get(`/_agent-native/jobs/${job.id}/runs`)).status).toBe(200)
  expect((await team.outsider.client.get(`/_agent-native/jobs/${job.id}/runs`)).status).toBe(404)
})

it('run now obeys overlap: skip while a run is in progress', async () => {
  const job = await createJob('busy', { overlap: 'skip' })
  fake.reply({ hang: true })
  const first = (await team.creator.client.post(`/_agent-native/jobs/${job.id}/run`)).body.run
  await waitForRun(team.creator.client, first.id, { until: (s) => s === 'running' })
  const second = await team.creator.client.post(`/_agent-native/jobs/${job.id}/run`)
  expect(second.status).toBe(202)
  expect(second.body.run).toMatchObject({ status: 'skipped', trigger: 'manual' })
  expect(second.body.run.reason).toBe(
    'run now by Cleo Creator; the previous run was still running (overlap: skip)',
  )
  // The hanging run is not this test's business any more: end it.
  await app.server.db.db.execute(
    sql`update job_runs set status = 'error', finished_at = now() where id = ${first.id}`,
  )
})

it('lists a job’s runs newest first and pages with ?before=; one run is 404 to outsiders', async () => {
  const job = await createJob('history')
  const ids: string[] = []
  for (let i = 0; i < 3; i++) {
    const run = (await team.creator.client.post(`/_agent-native/jobs/${job.id}/run`)).body.run
    await waitForRun(team.creator.client, run.id)
    ids.push(run.id)
  }
  const page1 = await team.creator.client.get(`/_agent-native/jobs/${job.id}/runs?limit=2`)
  expect(page1.status).toBe(200)
  expect(page1.body.runs.map((r: any) => r.id)).toEqual([ids[2], ids[1]])
  const page2 = await team.creator.client.get(`/_agent-native/jobs/${job.id}/runs?limit=2&before=${ids[1]}`)
  expect(page2.body.runs.map((r: any) => r.id)).toEqual([ids[0]])
  const bad = await team.creator.client.get(`/_agent-native/jobs/${job.id}/runs?limit=500`)
  expect(bad.status).toBe(400)
  expect(bad.body.error.field).toBe('limit')
  expect((await team.outsider.client.get(`/_agent-native/runs/${ids[0]}`)).status).toBe(404)
  expect((await team.creator.client.get('/_agent-native/runs/run_doesnotexist')).status).toBe(404)
})

it('scheduler status lists the live instance and the counts', async () => {
  const res = await team.member.client.get('/_agent-native/scheduler/status')
  expect(res.status).toBe(200)
  expect(res.body.instances.map((i: any) => i.id)).toEqual([scheduler.instanceId])
  expect(res.body).toMatchObject({ dueBacklog: 0, queued: 0 })
  expect(typeof res.body.running).toBe('number')
  expect((await app.client().get('/_agent-native/scheduler/status')).status).toBe(401)
})

it('scheduler status counts only the caller’s organisation; instances are opaque ids with last seen', async () => {
  const created = await team.outsider.client.post('/_agent-native/jobs', {
    name: 'elsewhere',
    schedule: '0 7 * * *',
    instructions: 'Another organisation’s work.',
  })
  expect(created.status).toBe(201)
  const jobId = created.body.job.id
  // Another organisation's waiting and running work (not due for a day, leased for a day).
  await app.server.db.db.execute(sql`
    insert into job_runs (id, job_id, org_id, trigger, scheduled_for, status, not_before, instance, started_at, lease_expires_at)
    values ('run_status_queued', ${jobId}, ${team.outsiderOrgId}, 'manual', now(), 'queued', now() + interval '1 day', null, null, null),
      ('run_status_running', ${jobId}, ${team.outsiderOrgId}, 'schedule', now() - interval '1 minute', 'running', null,
        'sch_elsewhere', now(), now() + interval '1 day')`)
  try {
    const mine = await team.member.client.get('/_agent-native/scheduler/status')
    expect(mine.body).toMatchObject({ dueBacklog: 0, queued: 0, running: 0 })
    const theirs = await team.outsider.client.get('/_agent-native/scheduler/status')
    expect(theirs.body).toMatchObject({ dueBacklog: 0, queued: 1, running: 1 })
    for (const instance of mine.body.instances) {
      expect(Object.keys(instance).sort()).toEqual(['id', 'lastSeenAt'])
      // Sixteen random characters and nothing else: no room for a host name or a pid.
      expect(instance.id).toMatch(/^sch_[a-z0-9]{16}$/)
      // A short name turns up inside sixteen random characters by chance (CI's host is called
      // "vm"), so only names of four characters or more are looked for.
      for (const identifying of [os.hostname(), String(process.pid)].filter((s) => s.length >= 4)) {
        expect(instance.id).not.toContain(identifying)
      }
      expect(Date.parse(instance.lastSeenAt)).toBeGreaterThan(Date.now() - 90_000)
    }
  } finally {
    await app.server.db.db.execute(
      sql`delete from job_runs where id in ('run_status_queued', 'run_status_running')`,
    )
  }
})

it('deleting a job deletes its runs and their transcripts (agent threads and messages)', async () => {
  const job = await createJob('short-lived')
  const queued = await team.creator.client.post(`/_agent-native/jobs/${job.id}/run`)
  expect(queued.status).toBe(202)
  await waitForRun(team.creator.client, queued.body.run.id)
  const count = async (
    table: 'agent_threads' | 'agent_messages' | 'job_runs',
    where: ReturnType<typeof sql>,
  ) => {
    const rows = (await app.server.db.db.execute(
      sql`select count(*)::int as n from ${sql.raw(table)} where ${where}`,
    )) as unknown as { n: number }[]
    return rows[0]!.n
  }
  const threadOf = sql`id in (select thread_id from job_runs where job_id = ${job.id})`
  const [thread] = (await app.server.db.db.execute(
    sql`select thread_id from job_runs where job_id = ${job.id}`,
  )) as unknown as { thread_id: string }[]
  expect(thread!.thread_id).toBeTruthy()
  expect(await count('agent_threads', threadOf)).toBe(1)

  expect((await team.creator.client.delete(`/_agent-native/jobs/${job.id}`)).status).toBe(204)
  expect(await count('job_runs', sql`job_id = ${job.id}`)).toBe(0)
  expect(await count('agent_threads', sql`id = ${thread!.thread_id}`)).toBe(0)
  expect(await count('agent_messages', sql`thread_id = ${thread!.thread_id}`)).toBe(0)
})

// Run now spam (an attack): each refused press wrote one more `skipped` row, kept for
// RUN_HISTORY_DAYS, so a script pressing in a loop grew the history without bound.
it.each(['skip', 'queue'] as const)(
  'forty Run now presses at once on a job whose run is going (overlap: %s) record one refused request, not forty',
  async (overlap) => {
    const job = await createJob(`spammed-${overlap}`, { overlap })
    fake.reply({ hang: true })
    const first = (await team.creator.client.post(`/_agent-native/jobs/${job.id}/run`)).body.run
    await waitForRun(team.creator.client, first.id, { until: (s) => s === 'running' })

    const answers = await Promise.all(
      Array.from({ length: 40 }, () => team.creator.client.post(`/_agent-native/jobs/${job.id}/run`)),
    )
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(202))
    const refused = answers.map((a) => a.body.run).filter((r) => r.status === 'skipped')
    expect(refused.length).toBe(overlap === 'skip' ? 40 : 39)
    // Every refused press answers with the one record of a refused press, saying who asked last.
    expect(new Set(refused.map((r) => r.id)).size).toBe(1)
    expect(refused[0].reason).toMatch(/^run now by Cleo Creator; /)
    const rows = (await app.server.db.db.execute(
      sql`select status from job_runs where job_id = ${job.id} order by status`,
    )) as unknown as { status: string }[]
    expect(rows.map((r) => r.status)).toEqual(
      overlap === 'skip' ? ['running', 'skipped'] : ['queued', 'running', 'skipped'],
    )
    await app.server.db.db.execute(
      sql`update job_runs set status = 'error', finished_at = now() where job_id = ${job.id} and status in ('running', 'queued')`,
    )
  },
)
