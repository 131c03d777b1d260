/**
 * A job's `email:` notify targets are checked when the job is saved, by the rule delivery applies
 * when sending: members of the job's organisation (or its creator) only. Anyone else is a 400
 * naming the target's field, with nothing written. Real HTTP, a real team of five people.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const J = '/_agent-native/jobs'

let app: TestApp
let team: Team

beforeAll(async () => {
  app = await startTestApp()
  team = await createTeam(app)
}, 300_000)
afterAll(() => app?.close())

const job = (name: string, notify: unknown) => ({
  name,
  schedule: '0 7 * * 1-5',
  instructions: 'Post the numbers.',
  notify,
})

const names = async () =>
  ((await team.creator.client.get(J)).body.jobs as { name: string }[]).map((j) => j.name)

describe('email notify targets on save', () => {
  it('refuses someone outside the organisation on create, naming the field, and writes nothing', async () => {
    const res = await team.creator.client.post(
      J,
      job('to-outsider', {
        onSuccess: ['webhook:ops-feed'],
        onFailure: [`email:${team.member.email}`, `email:${team.outsider.email}`],
      }),
    )
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('notify.onFailure.1')
    expect(res.body.error.message).toContain(team.outsider.email)
    expect(await names()).not.toContain('to-outsider')
  })

  it('refuses an address with no account at all', async () => {
    const res = await team.creator.client.post(
      J,
      job('to-nobody', { onSuccess: ['email:nobody-at-all@example.com'] }),
    )
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('notify.onSuccess.0')
  })

  it('accepts members and the creator, whatever the case of the address', async () => {
    const res = await team.creator.client.post(
      J,
      job('to-members', {
        onSuccess: [`email:${team.admin.email.toUpperCase()}`, `email:${team.creator.email}`],
      }),
    )
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  })

  it('refuses an outsider on update, leaving the job as it was', async () => {
    const created = await team.creator.client.post(
      J,
      job('update-me', { onSuccess: [`email:${team.member.email}`] }),
    )
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const before = created.body.job as { id: string; version: number; notify: unknown }

    const res = await team.creator.client.patch(`${J}/${before.id}`, {
      instructions: 'Post other numbers.',
      notify: { onSuccess: [`email:${team.member.email}`, `email:${team.outsider.email}`] },
    })
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('notify.onSuccess.1')
    const after = (await team.creator.client.get(`${J}/${before.id}`)).body.job
    expect(after).toMatchObject({
      version: before.version,
      notify: before.notify,
      instructions: 'Post the numbers.',
    })

    // A member is accepted on update too.
    const ok = await team.creator.client.patch(`${J}/${before.id}`, {
      notify: { onFailure: [`email:${team.owner.email}`] },
    })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.job.notify).toEqual({ onFailure: [`email:${team.owner.email}`] })
  })
})
