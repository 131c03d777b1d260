/**
 * A member could store as many paused jobs as they liked (only enabled ones were limited), each
 * with up to 60,000 characters of instructions, and the workspace tree and the calendar read every
 * visible job whole on each request: enough of them exhausts the server's memory for everyone.
 * Now an organisation stores at most ORG_MAX_JOBS jobs, paused ones included, whichever door
 * creates them, and creates at once take turns so none slips past the count (decision 0452).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const J = '/_agent-native/jobs'
const R = '/_agent-native/resources'
const LIMIT = 4

let app: TestApp
let team: Team

beforeAll(async () => {
  app = await startTestApp({ env: { ORG_MAX_JOBS: String(LIMIT) } })
  team = await createTeam(app)
})
afterAll(() => app?.close())

const paused = (name: string) => ({
  name,
  schedule: '0 7 * * *',
  instructions: `Do ${name}. `.repeat(100),
  scope: 'personal',
  enabled: false,
})
const jobFile = (name: string) => `---\nschedule: "0 7 * * *"\nenabled: false\n---\n\nDo ${name}.\n`
const refusal = { error: { code: 'quota_exceeded', message: expect.stringMatching(/already has 4 jobs/) } }

describe('jobs per organisation, paused ones included', () => {
  let firstId = ''

  it('takes paused jobs up to the limit, then refuses the next by the API, a job file and Duplicate, writing nothing', async () => {
    const member = team.member.client
    for (const name of ['pile-1', 'pile-2', 'pile-3']) {
      const res = await member.post(J, paused(name))
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      firstId ||= res.body.job.id
    }
    const fourth = await member.put(`${R}/personal/jobs/pile-4.md`, jobFile('pile-4'))
    expect(fourth.status, JSON.stringify(fourth.body)).toBe(201)

    const before = await snapshotTables(app.server.db)
    const byApi = await member.post(J, paused('pile-5'))
    expect(byApi.status).toBe(403)
    expect(byApi.body).toMatchObject(refusal)
    const byFile = await member.put(`${R}/personal/jobs/pile-5.md`, jobFile('pile-5'))
    expect(byFile.status).toBe(403)
    expect(byFile.body).toMatchObject(refusal)
    const form = new URLSearchParams({ intent: 'duplicate', id: firstId })
    const byDuplicate = await member.request('POST', '/jobs.data?index', form.toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    })
    expect(String(byDuplicate.body)).toContain('already has 4 jobs')
    expect(await snapshotTables(app.server.db)).toEqual(before)
  })

  it('lets exactly one of many creates at once take the one free place', async () => {
    expect((await team.member.client.delete(`${J}/${firstId}`)).status).toBe(204)
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => team.member.client.post(J, paused(`race-${i}`))),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([201, 403, 403, 403, 403, 403, 403, 403])
    const listed = await team.member.client.get(J)
    expect(listed.body.total).toBe(LIMIT)
  })

  it('counts each organisation apart', async () => {
    expect((await team.outsider.client.post(J, paused('elsewhere'))).status).toBe(201)
  })
})
