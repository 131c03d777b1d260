/**
 * Security review, finding 5: a creator who *left* an organisation kept their jobs running (only
 * removal paused them), and an admin's `enabled: true` could then not take them over. Leaving and
 * removal now behave the same: the leaver's jobs pause, and an admin resuming one becomes its creator.
 */
import { beforeEach, afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const J = '/_agent-native/jobs'
const A = '/_agent-native/auth/organization'
let app: TestApp

beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

const departures = {
  leaves: async (team: Team) => {
    const res = await team.creator.client.post(`${A}/leave`, { organizationId: team.orgId })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  },
  'is removed by an admin': async (team: Team) => {
    const res = await team.admin.client.post(`${A}/remove-member`, {
      memberIdOrEmail: team.creator.email,
      organizationId: team.orgId,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  },
}

describe.each(Object.entries(departures))('when the creator %s', (_how, depart) => {
  let team: Team
  let jobId: string

  beforeEach(async () => {
    team = await createTeam(app)
    const made = await team.creator.client.post(J, {
      name: 'digest',
      scope: 'shared',
      schedule: '*/5 * * * *',
      instructions: 'Summarise.',
    })
    expect(made.status).toBe(201)
    jobId = made.body.job.id
    await depart(team)
  })

  it('their jobs pause with the reason', async () => {
    const { body } = await team.admin.client.get(`${J}/${jobId}`)
    expect(body.job.suspendedReason).toMatch(/creator left the organisation/)
    expect(body.job.nextRun).toBeNull()
  })

  it("an admin's enabled: true takes the job over", async () => {
    const res = await team.admin.client.patch(`${J}/${jobId}`, { enabled: true })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.job).toMatchObject({
      enabled: true,
      suspendedReason: null,
      createdBy: { id: team.admin.id },
    })
    expect(res.body.job.nextRun).not.toBeNull()
    const audit = await team.admin.client.get(`${J}/${jobId}/audit`)
    expect(audit.body.entries[0].note).toMatch(/took it over from a creator who left/)
  })
})
