/**
 * The iCalendar feed over real HTTP, parsed by ical.js: a person's upcoming fires as `nextRuns`
 * gives them, only the jobs they see, and a token that stops working once revoked.
 */
import { eq } from 'drizzle-orm'
import ICAL from 'ical.js'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { FEED_DAYS } from '#server/calendar/feed.ts'
import { getDb } from '#server/db/client.ts'
import { member, organization } from '#server/db/schema/index.ts'
import { nextRuns } from '#server/cron/cron.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp
let team: Team
beforeAll(async () => {
  app = await startTestApp()
  team = await createTeam(app)
})
afterAll(() => app?.close())

const feed = (token: string) =>
  fetch(`${app.baseUrl}/_agent-native/calendar.ics?token=${encodeURIComponent(token)}`)

it('parses with ical.js, lists the next fires as nextRuns gives them, and stops when revoked', async () => {
  const client = team.member.client
  const post = (body: object) => client.post('/_agent-native/jobs', { instructions: 'Go.', ...body })
  const standup = (await post({ name: 'standup', schedule: '0 9 * * 1-5', timezone: 'Europe/Berlin' })).body
    .job
  const once = (await post({ name: 'once', at: '2099-01-01T00:00', timezone: 'Europe/Berlin' })).body.job
  await post({ name: 'idle', schedule: '0 9 * * *', enabled: false })
  // Another member's personal job is not theirs to see.
  await team.admin.client.post('/_agent-native/jobs', {
    name: 'secret',
    schedule: '0 * * * *',
    instructions: 'x',
  })

  const made = await client.post('/_agent-native/calendar/tokens')
  expect(made.status).toBe(201)
  const res = await feed(made.body.token)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^text\/calendar/)
  const text = await res.text()
  const calendar = new ICAL.Component(ICAL.parse(text))
  const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v))
  const starts = (name: string) =>
    events.filter((e) => e.summary === name).map((e) => e.startDate.toJSDate().toISOString())

  const stamp = events[0]!.component.getFirstPropertyValue('dtstamp') as ICAL.Time
  const now = stamp.toJSDate()
  const until = Math.ceil((now.getTime() + FEED_DAYS * 86_400_000) / 3_600_000) * 3_600_000
  const expected = nextRuns('0 9 * * 1-5', { after: now, timezone: 'Europe/Berlin', count: 30 })
    .filter((d) => d.getTime() < until)
    .map((d) => d.toISOString())
  expect(starts('standup')).toEqual(expected)
  expect(starts('once')).toEqual([]) // far beyond the feed's 30 days
  expect(new Set(events.map((e) => e.summary))).toEqual(new Set(['standup']))
  expect(new Set(events.map((e) => e.uid)).size).toBe(events.length)
  expect(events[0]!.description).toContain(`/jobs/${standup.id}`)
  expect(once.id).toBeTruthy()

  // A token is its owner's alone to revoke; revoked, the feed refuses it.
  expect(
    (await team.admin.client.delete(`/_agent-native/calendar/tokens/${made.body.summary.id}`)).status,
  ).toBe(404)
  expect((await client.delete(`/_agent-native/calendar/tokens/${made.body.summary.id}`)).status).toBe(204)
  const refused = await feed(made.body.token)
  expect(refused.status).toBe(401)
  expect((await refused.json()).error.code).toBe('unauthorized')
  expect((await feed('cwc_not-a-token')).status).toBe(401)
})

it('keeps a control character in an organisation name out of every member’s feed (refused at the source, escaped in the feed)', async () => {
  const owner = team.owner.client
  const evil = 'Team\rBEGIN:VEVENT\rSUMMARY:Click evil.example\rEND:VEVENT'
  // Refused where names are written: renaming and creating an organisation.
  const renamed = await owner.post('/_agent-native/auth/organization/update', {
    organizationId: team.orgId,
    data: { name: evil },
  })
  expect(renamed.status).toBe(400)
  expect(renamed.body.error).toMatchObject({ field: 'name' })
  const created = await owner.post('/_agent-native/auth/organization/create', {
    name: evil,
    slug: 'evil-org',
  })
  expect(created.status).toBe(400)
  expect(created.body.error).toMatchObject({ field: 'name' })
  const [org] = await getDb().select().from(organization).where(eq(organization.id, team.orgId))
  expect(org!.name).not.toContain('\r')
  // Nothing was made: the owner still belongs to team A alone.
  expect(await getDb().select().from(member).where(eq(member.userId, team.owner.id))).toHaveLength(1)

  // A name stored before the check: the feed escapes it, so it stays one property.
  await getDb().update(organization).set({ name: evil }).where(eq(organization.id, team.orgId))
  await team.member.client.post('/_agent-native/jobs', {
    name: 'named',
    schedule: '0 9 * * *',
    instructions: 'Go.',
  })
  const made = await team.member.client.post('/_agent-native/calendar/tokens')
  const text = await (await feed(made.body.token)).text()
  const lines = text.split('\r\n')
  expect(lines.every((line) => !/[\r\n]/.test(line))).toBe(true)
  expect(lines).not.toContain('SUMMARY:Click evil.example')
  const calendar = new ICAL.Component(ICAL.parse(text))
  const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v))
  expect(events.map((e) => e.summary)).toContain('named')
  expect(events.some((e) => e.summary.includes('evil'))).toBe(false)
  expect(String(calendar.getFirstPropertyValue('x-wr-calname'))).toContain('Team')
})

it('reads nothing for someone removed from the organisation, though they never revoked their token', async () => {
  // A member leaves with a feed token still in their calendar app: the team's shared schedule is
  // not theirs to read any more. Their token from their own organisation keeps working there.
  const removed = await createTeam(app)
  const made = await removed.creator.client.post('/_agent-native/jobs', {
    name: 'team-standup',
    scope: 'shared',
    schedule: '0 9 * * *',
    instructions: 'Go.',
  })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  const token = (await removed.member.client.post('/_agent-native/calendar/tokens')).body.token as string
  expect(await (await feed(token)).text()).toContain('SUMMARY:team-standup')
  const own = (await removed.outsider.client.post('/_agent-native/calendar/tokens')).body.token as string

  const res = await removed.admin.client.post('/_agent-native/auth/organization/remove-member', {
    memberIdOrEmail: removed.member.email,
    organizationId: removed.orgId,
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const refused = await feed(token)
  expect(refused.status).toBe(401)
  expect(await refused.text()).not.toContain('team-standup')
  // Someone else's feed, made in another organisation, never carries this one's jobs.
  const other = await feed(own)
  expect(other.status).toBe(200)
  expect(await other.text()).not.toContain('team-standup')
})
