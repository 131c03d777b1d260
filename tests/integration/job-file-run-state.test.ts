/**
 * The job file holds what a person writes, not what the scheduler writes (issue 26 item 5,
 * decision 0250): after a failed run with a long error its file has no orgId, lastRun,
 * lastStatus, lastError or nextRun, while the job's API view (what the job page shows) has them.
 * A file written in the old shape, with those keys, is accepted with them ignored; a different
 * orgId is still refused.
 */
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { withTeamApp } from '#tests/support/team-app.ts'

const J = '/_agent-native/jobs'
const R = '/_agent-native/resources'
const RUN_STATE_KEYS = /^(orgId|lastRun|lastStatus|lastError|nextRun):/m

const suite = withTeamApp()

async function failedJob(name: string) {
  const c = suite.team.creator.client
  const res = await c.post(J, { name, schedule: '0 7 * * *', instructions: 'Post the numbers.' })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  // The scheduler's columns, as a failed run leaves them (a long error, as real providers give).
  const longError = `The provider answered 529 overloaded. ${'Retry later. '.repeat(80)}`
  await suite.app.server.db.db.execute(
    sql`update jobs set last_run_at = now() - interval '5 minutes', last_status = 'error',
        last_error = ${longError}, consecutive_failures = 1 where id = ${res.body.job.id}`,
  )
  return { id: res.body.job.id as string, longError }
}

const readFile = (name: string) =>
  suite.team.creator.client.request('GET', `${R}/personal/jobs/${name}.md`, undefined, {
    accept: 'text/markdown',
  })

describe('the job file carries no run state', () => {
  it('shows the definition and creator only, while the job view keeps the run state', async () => {
    const { id, longError } = await failedJob('failing-digest')
    const file = await readFile('failing-digest')
    expect(file.status).toBe(200)
    expect(file.body).toContain('schedule: "0 7 * * *"')
    expect(file.body).toContain(`createdBy: ${suite.team.creator.email}`)
    expect(file.body).not.toMatch(RUN_STATE_KEYS)
    expect(file.body).not.toContain('529 overloaded')

    const view = (await suite.team.creator.client.get(`${J}/${id}`)).body.job
    expect(view).toMatchObject({ lastStatus: 'error', lastError: longError, orgId: suite.team.orgId })
    expect(view.lastRun).toEqual(expect.any(String))
    expect(view.nextRun).toEqual(expect.any(String))
  })

  it('accepts a file in the old shape and ignores its run state keys', async () => {
    const { id, longError } = await failedJob('old-shape')
    const before = (await suite.team.creator.client.get(`${J}/${id}`)).body.job
    const oldShape = [
      '---',
      'schedule: "30 8 * * *"',
      `createdBy: ${suite.team.creator.email}`,
      `orgId: ${suite.team.orgId}`,
      'lastRun: 2020-01-01T00:00:00.000Z',
      'lastStatus: success',
      'lastError: "nothing"',
      'nextRun: 2020-01-02T00:00:00.000Z',
      '---',
      'Post the numbers at half past eight.',
      '',
    ].join('\n')
    const put = await suite.team.creator.client.put(`${R}/personal/jobs/old-shape.md`, oldShape)
    expect(put.status, JSON.stringify(put.body)).toBe(200)

    const after = (await suite.team.creator.client.get(`${J}/${id}`)).body.job
    expect(after.schedule).toBe('30 8 * * *')
    expect(after.instructions).toBe('Post the numbers at half past eight.')
    // The scheduler's columns are untouched: the file's values were ignored.
    expect(after).toMatchObject({ lastStatus: 'error', lastError: longError, lastRun: before.lastRun })
    expect(after.nextRun).not.toBe('2020-01-02T00:00:00.000Z')
    expect(after.extra).toEqual({})
    // Saved back, the file is in the new shape.
    expect((await readFile('old-shape')).body).not.toMatch(RUN_STATE_KEYS)
  })

  it('still refuses an orgId that is not the job’s organisation', async () => {
    await failedJob('other-org')
    const res = await suite.team.creator.client.put(
      `${R}/personal/jobs/other-org.md`,
      `---\nschedule: "0 7 * * *"\norgId: ${suite.team.outsiderOrgId}\n---\nGo.\n`,
    )
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('orgId')
  })
})
