/**
 * The jobs API's behaviour beyond access: the Job shape, versions and If-Match, the audit trail,
 * the editor becoming the creator, pause and resume, name uniqueness, list filters, and job files
 * as a full replace that never touches run state.
 */
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { setUserTimezone } from '#server/accounts/store.ts'
import { getDbHandle } from '#server/db/client.ts'
import { nextRun } from '#server/cron/cron.ts'
import { onJobsChanged } from '#server/db/signal.ts'
import { withTeamApp } from '#tests/support/team-app.ts'
import { POLL } from '#tests/support/poll.ts'
import { queryRows } from '#server/db/sql.ts'

const J = '/_agent-native/jobs'
const R = '/_agent-native/resources'

const suite = withTeamApp()
let counter = 0

type Who = 'owner' | 'admin' | 'member' | 'creator' | 'outsider'
async function create(who: Who, body: Record<string, unknown> = {}) {
  const res = await suite.team[who].client.post(J, {
    name: `job-${++counter}`,
    schedule: '0 7 * * *',
    instructions: 'Post the numbers.',
    scope: 'shared',
    ...body,
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.job
}
const exec = (query: ReturnType<typeof sql>) => queryRows(getDbHandle().db, query)

describe('the Job shape', () => {
  it('has exactly the contract fields, with identity from the session and an ETag', async () => {
    const res = await suite.team.creator.client.post(J, {
      name: 'shape',
      schedule: '0 7 * * 1-5',
      instructions: 'Summarise sign-ups.',
      timezone: 'Europe/Berlin',
      extra: { channel: '#growth' },
    })
    expect(res.status).toBe(201)
    expect(res.headers.get('etag')).toBe('"1"')
    const job = res.body.job
    expect(Object.keys(job).sort()).toEqual(
      [
        'id',
        'name',
        'scope',
        'orgId',
        'createdBy',
        'schedule',
        'timezone',
        'enabled',
        'runAs',
        'instructions',
        'extra',
        'description',
        'catchUp',
        'overlap',
        'retries',
        'timeoutMinutes',
        'maxCostUsd',
        'environment',
        'harness',
        'agentMayEditJobs',
        'notify',
        'alertAfterFailures',
        'expectSuccessWithin',
        'mcp',
        'skills',
        'nextRun',
        'lastRun',
        'lastStatus',
        'lastError',
        'lastDeniedCommands',
        'suspendedReason',
        'version',
        'createdAt',
        'updatedAt',
        'canEdit',
      ].sort(),
    )
    expect(job).toMatchObject({
      name: 'shape',
      scope: 'personal',
      orgId: suite.team.orgId,
      createdBy: {
        id: suite.team.creator.id,
        email: suite.team.creator.email,
        name: suite.team.creator.name,
      },
      enabled: true,
      runAs: 'creator',
      extra: { channel: '#growth' },
      description: 'Every weekday at 07:00 (Europe/Berlin)',
      catchUp: 'latest',
      overlap: 'skip',
      retries: 0,
      timeoutMinutes: 10,
      maxCostUsd: null,
      environment: null,
      harness: 'builtin',
      agentMayEditJobs: false,
      notify: null,
      alertAfterFailures: 2,
      expectSuccessWithin: null,
      mcp: null,
      skills: null,
      lastRun: null,
      lastStatus: null,
      version: 1,
      canEdit: true,
    })
    expect(job.nextRun).toBe(
      nextRun('0 7 * * 1-5', { after: new Date(job.createdAt), timezone: 'Europe/Berlin' })!.toISOString(),
    )
    const got = await suite.team.creator.client.get(`${J}/${job.id}`)
    expect(got.body.job).toEqual(job)
    // A read's tag starts with the version (so it works as If-Match) and covers run state too.
    expect(got.headers.get('etag')).toMatch(/^"1\.[\w-]+"$/)
  })

  it("defaults the timezone to the creator's setting, else UTC; a disabled job has no next run", async () => {
    await setUserTimezone(suite.team.member.id, 'America/Santiago')
    expect((await create('member')).timezone).toBe('America/Santiago')
    expect((await create('admin', { enabled: false })).timezone).toBe('UTC')
    expect((await create('admin', { enabled: false })).nextRun).toBeNull()
  })
})

describe('versions and If-Match', () => {
  it('bumps the version on every change, answers 409 to a stale If-Match, accepts ETag forms', async () => {
    const job = await create('creator')
    const first = await suite.team.creator.client.patch(
      `${J}/${job.id}`,
      { schedule: '0 8 * * *' },
      { 'if-match': '"1"' },
    )
    expect(first.status).toBe(200)
    expect(first.body.job.version).toBe(2)
    expect(first.headers.get('etag')).toBe('"2"')

    const stale = await suite.team.admin.client.patch(
      `${J}/${job.id}`,
      { schedule: '0 9 * * *' },
      { 'if-match': '"1"' },
    )
    expect(stale.status).toBe(409)
    expect(stale.body.error).toMatchObject({ code: 'conflict', field: 'version' })
    expect(stale.body.error.message).toMatch(/Someone else changed this job.*version 1.*version 2.*Reload/)

    const plain = await suite.team.admin.client.patch(`${J}/${job.id}`, { retries: 1 }, { 'if-match': '2' })
    expect(plain.status).toBe(200)
    const weak = await suite.team.admin.client.patch(
      `${J}/${job.id}`,
      { retries: 0 },
      { 'if-match': 'W/"3"' },
    )
    expect(weak.status).toBe(200)
    expect(weak.body.job.version).toBe(4)
    const wildcard = await suite.team.admin.client.patch(
      `${J}/${job.id}`,
      { retries: 2 },
      { 'if-match': '*' },
    )
    expect(wildcard.status).toBe(200)
  })

  it('a change that changes nothing keeps the version and writes no audit entry', async () => {
    const job = await create('creator')
    const same = await suite.team.creator.client.patch(`${J}/${job.id}`, {
      schedule: '0 7 * * *',
      enabled: true,
    })
    expect(same.status).toBe(200)
    expect(same.body.job.version).toBe(1)
    expect((await suite.team.creator.client.get(`${J}/${job.id}/audit`)).body.entries).toHaveLength(1)
  })

  it('DELETE honours If-Match too', async () => {
    const job = await create('creator')
    expect(
      (await suite.team.creator.client.request('DELETE', `${J}/${job.id}`, undefined, { 'if-match': '"2"' }))
        .status,
    ).toBe(409)
    expect(
      (await suite.team.creator.client.request('DELETE', `${J}/${job.id}`, undefined, { 'if-match': '"1"' }))
        .status,
    ).toBe(204)
    expect((await suite.team.creator.client.get(`${J}/${job.id}`)).status).toBe(404)
  })
})

describe('the audit trail', () => {
  it('records who changed what, from and to, newest first; the trail outlives the job', async () => {
    const job = await create('creator')
    await suite.team.creator.client.patch(`${J}/${job.id}`, {
      schedule: '*/15 * * * *',
      timezone: 'Asia/Tokyo',
    })
    await suite.team.admin.client.patch(`${J}/${job.id}`, { enabled: false })
    await suite.team.owner.client.patch(`${J}/${job.id}`, { enabled: true })
    const res = await suite.team.member.client.get(`${J}/${job.id}/audit`)
    expect(res.status).toBe(200)
    const entries = res.body.entries
    expect(entries.map((e: { action: string }) => e.action)).toEqual([
      'enable',
      'disable',
      'update',
      'create',
    ])
    expect(entries[0].actor).toEqual({
      id: suite.team.owner.id,
      email: suite.team.owner.email,
      name: suite.team.owner.name,
    })
    expect(entries[1].changes).toEqual({ enabled: { from: true, to: false } })
    expect(entries[2].changes).toEqual({
      schedule: { from: '0 7 * * *', to: '*/15 * * * *' },
      timezone: { from: 'UTC', to: 'Asia/Tokyo' },
    })
    expect(entries[3].changes.instructions).toEqual({ from: null, to: 'Post the numbers.' })
    expect(new Date(entries[0].at).getTime()).toBeGreaterThanOrEqual(new Date(entries[3].at).getTime())

    await suite.team.admin.client.delete(`${J}/${job.id}`)
    const rows = await exec(sql`select action, actor_id from job_audit where job_id = ${job.id} order by id`)
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'disable', 'enable', 'delete'])
    expect(rows.at(-1)?.actor_id).toBe(suite.team.admin.id)
    expect((await suite.team.member.client.get(`${J}/${job.id}/audit`)).status).toBe(404)
  })
})

describe('the editor becomes the creator', () => {
  it("when an admin rewrites a member's instructions; recorded, and the member loses edit rights", async () => {
    const job = await create('creator')
    const res = await suite.team.admin.client.patch(`${J}/${job.id}`, {
      instructions: 'Post the numbers to #ops.',
    })
    expect(res.status).toBe(200)
    expect(res.body.job.createdBy).toEqual({
      id: suite.team.admin.id,
      email: suite.team.admin.email,
      name: suite.team.admin.name,
    })
    const [latest] = (await suite.team.admin.client.get(`${J}/${job.id}/audit`)).body.entries
    expect(latest.changes.createdBy).toEqual({ from: suite.team.creator.id, to: suite.team.admin.id })
    expect(latest.note).toMatch(/Adam Admin .* became the job's creator/)
    const former = await suite.team.creator.client.get(`${J}/${job.id}`)
    expect(former.body.job.canEdit).toBe(false)
    expect((await suite.team.creator.client.patch(`${J}/${job.id}`, { enabled: false })).status).toBe(403)
  })

  it('not when an admin changes only the schedule, nor when the creator edits', async () => {
    const job = await create('creator')
    const res = await suite.team.admin.client.patch(`${J}/${job.id}`, { schedule: '0 6 * * *' })
    expect(res.body.job.createdBy.id).toBe(suite.team.creator.id)
    const own = await suite.team.creator.client.patch(`${J}/${job.id}`, { instructions: 'New words.' })
    expect(own.body.job.createdBy.id).toBe(suite.team.creator.id)
  })
})

describe('pause and resume', () => {
  it('resuming lifts a suspension and computes the next run from now, not from the old slot', async () => {
    const job = await create('creator', { schedule: '30 6 * * *', timezone: 'Europe/London' })
    // The scheduler suspended it after repeated failures, long ago.
    await exec(sql`update jobs set suspended_reason = 'Failed 10 times in a row', consecutive_failures = 10,
      next_run_at = '2020-01-01T06:30:00Z', last_status = 'error' where id = ${job.id}`)
    const paused = await suite.team.creator.client.get(`${J}?status=paused`)
    expect(paused.body.jobs.map((j: { id: string }) => j.id)).toContain(job.id)

    const before = new Date()
    const res = await suite.team.creator.client.patch(`${J}/${job.id}`, { enabled: true })
    expect(res.status).toBe(200)
    expect(res.body.job).toMatchObject({ enabled: true, suspendedReason: null, version: 2 })
    const expected = nextRun('30 6 * * *', { after: before, timezone: 'Europe/London' })!
    expect(new Date(res.body.job.nextRun).getTime()).toBe(expected.getTime())
    const [row] = await exec(sql`select consecutive_failures, last_status from jobs where id = ${job.id}`)
    // Resuming resets the failure count but leaves the rest of the run state to the scheduler.
    expect(row).toEqual({ consecutive_failures: 0, last_status: 'error' })
    const [entry] = (await suite.team.creator.client.get(`${J}/${job.id}/audit`)).body.entries
    expect(entry).toMatchObject({
      action: 'enable',
      changes: { suspendedReason: { from: 'Failed 10 times in a row', to: null } },
    })
  })

  it('pausing clears the next run; resuming a long-paused job schedules from now', async () => {
    const job = await create('creator', { schedule: '*/5 * * * *' })
    const off = await suite.team.creator.client.patch(`${J}/${job.id}`, { enabled: false })
    expect(off.body.job).toMatchObject({ enabled: false, nextRun: null })
    // From the resume, not from before the pause: within one */5 slot of the request, however
    // long the request took (the second of slack is the database's clock against this one's).
    const before = Date.now()
    const on = await suite.team.creator.client.patch(`${J}/${job.id}`, { enabled: true })
    const after = Date.now()
    const next = new Date(on.body.job.nextRun).getTime()
    expect(next).toBeGreaterThan(before - 1000)
    expect(next).toBeLessThanOrEqual(after + 5 * 60_000)
  })

  it('wakes the schedulers after a change commits', async () => {
    let calls = 0
    const stop = await onJobsChanged(() => calls++)
    try {
      await create('creator')
      await expect.poll(() => calls, POLL).toBeGreaterThan(0)
    } finally {
      await stop()
    }
  })
})

describe('names are unique per scope', () => {
  it('409 for a second personal job of the same name; fine shared, and for another person', async () => {
    await create('creator', { name: 'weekly', scope: 'personal' })
    const dup = await suite.team.creator.client.post(J, {
      name: 'weekly',
      scope: 'personal',
      schedule: '0 7 * * *',
      instructions: 'Again.',
    })
    expect(dup.status).toBe(409)
    expect(dup.body.error).toMatchObject({ code: 'conflict', field: 'name' })
    expect(dup.body.error.message).toMatch(/"weekly" is already the name of one of your personal jobs/)
    await create('creator', { name: 'weekly', scope: 'shared' })
    await create('member', { name: 'weekly', scope: 'personal' })
    const sharedDup = await suite.team.admin.client.post(J, {
      name: 'weekly',
      scope: 'shared',
      schedule: '0 7 * * *',
      instructions: 'Again.',
    })
    expect(sharedDup.status).toBe(409)
    expect(sharedDup.body.error.message).toMatch(/a shared job in this organisation/)
    await create('outsider', { name: 'weekly', scope: 'shared' })
  })
})

describe('list filters', () => {
  it('filters by scope, text (literally: % and _ are not wildcards) and status', async () => {
    const a = await create('admin', { name: 'filter-alpha', instructions: 'Count 100% of the_rows.' })
    const b = await create('admin', { name: 'filter-beta', scope: 'personal', instructions: 'Count rows.' })
    const c = await create('admin', { name: 'filter-gamma', enabled: false })
    await exec(sql`update jobs set last_status = 'timed_out' where id = ${b.id}`)
    await exec(sql`insert into job_runs (id, job_id, org_id, trigger, scheduled_for, status)
      values ('run_filter', ${a.id}, ${suite.team.orgId}, 'manual', now(), 'running')`)
    const ids = async (query: string) =>
      (await suite.team.admin.client.get(`${J}?${query}`)).body.jobs
        .map((j: { name: string }) => j.name)
        .filter((n: string) => n.startsWith('filter-'))
    expect(await ids('q=filter')).toEqual(['filter-alpha', 'filter-beta', 'filter-gamma'])
    expect(await ids('q=filter&scope=personal')).toEqual(['filter-beta'])
    expect(await ids('q=filter&scope=shared')).toEqual(['filter-alpha', 'filter-gamma'])
    expect(await ids('q=100%25')).toEqual(['filter-alpha'])
    expect(await ids('q=the_rows')).toEqual(['filter-alpha'])
    expect(await ids('q=THE_ROWS')).toEqual(['filter-alpha'])
    // As wildcards, these would match "Count rows." and "Count 100% of the_rows.".
    expect(await ids('q=count_rows')).toEqual([])
    expect(await ids('q=count%25rows')).toEqual([])
    expect(await ids('q=filter&status=paused')).toEqual(['filter-gamma'])
    expect(await ids('q=filter&status=enabled')).toEqual(['filter-alpha', 'filter-beta'])
    expect(await ids('q=filter&status=failing')).toEqual(['filter-beta'])
    expect(await ids('q=filter&status=running')).toEqual(['filter-alpha'])
    expect(await ids('q=filter&scope=&status=')).toHaveLength(3)
    expect(c.enabled).toBe(false)
  })
})

describe('job files', () => {
  it('a file PUT is a full replace: left-out keys go to defaults, timezone stays, extra keys round-trip', async () => {
    const job = await create('creator', {
      name: 'file-replace',
      timezone: 'Asia/Tokyo',
      retries: 3,
      overlap: 'queue',
      extra: { owner: 'growth' },
    })
    await exec(
      sql`update jobs set last_status = 'success', last_run_at = '2026-01-01T00:00:00Z' where id = ${job.id}`,
    )
    const text = [
      '---',
      'schedule: "0 9 * * *"',
      'channel: "#ops"',
      'lastStatus: error', // managed: ignored
      'nextRun: 2031-01-01T00:00:00Z', // managed: ignored
      `createdBy: ${suite.team.creator.email}`,
      '---',
      'New instructions.',
      '',
    ].join('\n')
    const res = await suite.team.creator.client.put(`${R}/shared/jobs/file-replace.md`, text)
    expect(res.status).toBe(200)
    expect(res.headers.get('etag')).toBe('"2"')
    expect(res.body.job).toMatchObject({
      schedule: '0 9 * * *',
      timezone: 'Asia/Tokyo',
      retries: 0,
      overlap: 'skip',
      extra: { channel: '#ops' },
      instructions: 'New instructions.',
      lastStatus: 'success',
      lastRun: '2026-01-01T00:00:00.000Z',
      version: 2,
    })
    expect(res.body.resource).toMatchObject({ path: 'jobs/file-replace.md', scope: 'shared', version: 2 })
    const [entry] = (await suite.team.creator.client.get(`${J}/${job.id}/audit`)).body.entries
    expect(entry.note).toBe('Saved as shared/jobs/file-replace.md')

    // The rendered file reads back as the same definition: saving it again changes nothing.
    const again = await suite.team.creator.client.put(
      `${R}/shared/jobs/file-replace.md`,
      res.body.resource.content,
    )
    expect(again.status).toBe(200)
    expect(again.body.job.version).toBe(2)
  })

  it('saving the file of a suspended job does not silently resume it', async () => {
    const job = await create('creator', { name: 'file-suspended' })
    await exec(
      sql`update jobs set suspended_reason = 'Its creator left', next_run_at = null where id = ${job.id}`,
    )
    const text = (await suite.team.creator.client.get(`${R}/shared/jobs/file-suspended.md`)).body.resource
      .content
    const res = await suite.team.creator.client.put(
      `${R}/shared/jobs/file-suspended.md`,
      text.replace('Post the numbers.', 'Fixed.'),
    )
    expect(res.body.job).toMatchObject({
      suspendedReason: 'Its creator left',
      nextRun: null,
      instructions: 'Fixed.',
    })
  })

  it('a new job file creates a job owned by the caller (201), and DELETE removes it', async () => {
    const res = await suite.team.member.client.put(
      `${R}/personal/jobs/from-file.md`,
      '---\nschedule: "@daily"\n---\nHello.\n',
    )
    expect(res.status).toBe(201)
    expect(res.body.job).toMatchObject({
      name: 'from-file',
      scope: 'personal',
      createdBy: { id: suite.team.member.id },
    })
    expect((await suite.team.member.client.delete(`${R}/personal/jobs/from-file.md`)).status).toBe(204)
    expect((await suite.team.member.client.get(`${J}/${res.body.job.id}`)).status).toBe(404)
  })
})
