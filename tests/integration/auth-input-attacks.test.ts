/**
 * An outside review of what better-auth's endpoints store (decision 0532). Sign-up is open, so every
 * account may be the attacker: each attack here is the request of a signed-up person (or a visitor
 * signing up) sending a field better-auth stores, through /_agent-native/auth/*. Each must be a 400
 * naming every bad field, never a 500, with nothing written; a role change must never grant what
 * the sender could not grant.
 */
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import type { ApiResponse } from '#tests/support/api-client.ts'
import type { TeamPerson } from '#tests/support/team.ts'
import { withTeamApp } from '#tests/support/team-app.ts'

const suite = withTeamApp()
const AUTH = '/_agent-native/auth'
const ORG = `${AUTH}/organization`

const rows = (query: ReturnType<typeof sql>) => queryRows(suite.app.server.db.db, query)
const users = () => rows(sql`select id, name, email, image, timezone from "user" order by id`)
const organisations = () => rows(sql`select id, name, slug, logo, metadata from organization order by id`)
const members = () => rows(sql`select id, organization_id, user_id, role from member order by id`)
const invitations = () => rows(sql`select id, email, role, status from invitation order by id`)

/** `n` random lower-case letters and digits: text that compresses little, as an attacker sends it. */
const noise = (n: number) =>
  Array.from(randomBytes(n), (b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('')

/** A 400 in our error shape naming exactly `fields`, in that order. */
function expectRefused(res: ApiResponse, fields: string[]) {
  const text = JSON.stringify(res.body).slice(0, 500)
  expect(res.status, text).toBe(400)
  expect(res.body.error, text).toMatchObject({ code: 'bad_request', field: fields[0] })
  const named = res.body.error.fields?.map((f: { field: string }) => f.field) ?? [res.body.error.field]
  expect(named, text).toEqual(fields)
}

const signUp = (fields: Record<string, unknown>) =>
  suite.app.client().post(`${AUTH}/sign-up/email`, {
    name: 'Eve Attacker',
    email: `eve-${noise(8)}@example.com`,
    password: 'password1234',
    ...fields,
  })

// A person's picture: better-auth checks only that it is a string at sign-up, and nothing at all on
// update-user, and stores it as given.
const BAD_IMAGES = [
  ['a NUL', 'https://example.com/me\u0000.png'],
  ['a lone surrogate', 'https://example.com/\ud800.png'],
  ['200 KB', `https://example.com/${noise(200_000)}`],
  ['two lines', 'https://example.com/me.png\nX-Evil: 1'],
  ['a number', 42],
  ['an object', { src: 'https://example.com/me.png' }],
  ['an array', ['https://example.com/me.png']],
] as const

describe('a bad picture (image)', () => {
  it.each(BAD_IMAGES)('(%s) at sign-up is a 400 naming image, no account made', async (_, image) => {
    const before = await users()
    expectRefused(await signUp({ image }), ['image'])
    expect(await users()).toEqual(before)
  })

  it.each(BAD_IMAGES)('(%s) on update-user is a 400 naming image, nothing changed', async (_, image) => {
    const before = await users()
    expectRefused(await suite.team.member.client.post(`${AUTH}/update-user`, { image }), ['image'])
    expect(await users()).toEqual(before)
  })

  it('an address of one line is stored, and null clears it', async () => {
    const { member } = suite.team
    const image = 'https://example.com/mia.png'
    expect((await member.client.post(`${AUTH}/update-user`, { image })).status).toBe(200)
    expect((await users()).find((u) => u.id === member.id)?.image).toBe(image)
    expect((await member.client.post(`${AUTH}/update-user`, { image: null })).status).toBe(200)
    expect((await users()).find((u) => u.id === member.id)?.image).toBeNull()
  })
})

describe('a bad address (email) at sign-up', () => {
  // 200 KB that compresses little is past what PostgreSQL's unique index on the address takes.
  it.each([
    ['200 KB', `${noise(200_000)}@example.com`],
    ['255 characters', `${noise(243)}@example.com`],
  ])('(%s) is a 400 naming email, never a 500, no account made', async (_, email) => {
    const before = await users()
    expectRefused(await signUp({ email }), ['email'])
    expect(await users()).toEqual(before)
  })
})

describe('several bad user fields at once', () => {
  it('at sign-up are each named in one 400', async () => {
    const before = await users()
    const res = await signUp({
      name: 'Eve\nAttacker',
      email: `${noise(300)}@example.com`,
      image: 'a\u0000',
      timezone: 'Mars/Olympus',
    })
    expectRefused(res, ['name', 'email', 'image', 'timezone'])
    expect(await users()).toEqual(before)
  })

  it('on update-user are each named in one 400', async () => {
    const before = await users()
    const res = await suite.team.member.client.post(`${AUTH}/update-user`, {
      name: ['Mia'],
      image: { evil: true },
      timezone: 42,
    })
    expectRefused(res, ['name', 'image', 'timezone'])
    expect(await users()).toEqual(before)
  })
})

// An organisation's metadata: better-auth checks only that it is an object, and stores it as JSON
// text. Nothing in Clockwork reads it, so it is bounded, not given a shape.
const deepMetadata = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
const BAD_METADATA = [
  ['an array', '[1,2,3]'],
  ['null', 'null'],
  ['a number', '42'],
  ['a string', '"plan"'],
  ['200 KB', JSON.stringify({ notes: noise(200_000) })],
  ['4 KiB and one character as JSON', JSON.stringify({ n: 'x'.repeat(4096 - '{"n":""}'.length + 1) })],
  ['a NUL in a value', JSON.stringify({ plan: 'pro\u0000' })],
  ['a lone surrogate in a key', '{"\\ud800":"x"}'],
  // Too deep for JSON.stringify, which better-auth calls on it: that was a 500.
  ['40,000 levels deep', deepMetadata(40_000)],
] as const

describe('bad organisation metadata', () => {
  it.each(BAD_METADATA)(
    '(%s) is a 400 naming metadata on create and update, never a 500, nothing made or changed',
    async (_, metadata) => {
      const { owner, orgId } = suite.team
      const before = await organisations()
      const json = { 'content-type': 'application/json' }
      const made = await owner.client.post(
        `${ORG}/create`,
        `{"name":"Meta","slug":"meta-${noise(6)}","metadata":${metadata}}`,
        json,
      )
      expectRefused(made, ['metadata'])
      const updated = await owner.client.post(
        `${ORG}/update`,
        `{"organizationId":${JSON.stringify(orgId)},"data":{"metadata":${metadata}}}`,
        json,
      )
      expectRefused(updated, ['metadata'])
      expect(await organisations()).toEqual(before)
    },
  )

  it('with a bad name is named with it in one 400', async () => {
    const { owner, orgId } = suite.team
    const before = await organisations()
    const res = await owner.client.post(`${ORG}/update`, {
      organizationId: orgId,
      data: { name: '', metadata: [] },
    })
    expectRefused(res, ['name', 'metadata'])
    expect(await organisations()).toEqual(before)
  })

  it('a small object is stored', async () => {
    const { owner, orgId } = suite.team
    const metadata = { plan: 'team', seats: 5, tags: ['a', 'b'] }
    const res = await owner.client.post(`${ORG}/update`, { organizationId: orgId, data: { metadata } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const stored = (await organisations()).find((o) => o.id === orgId)
    expect(JSON.parse(String(stored!.metadata))).toEqual(metadata)
  })
})

// Roles: Clockwork knows one role per membership (owner, admin or member); better-auth also takes a
// list, as an array or comma-joined, which every check of ours that compares the role reads wrongly.
describe('a role that is not one of owner, admin or member', () => {
  const BAD_ROLES = [
    ['comma-joined', 'admin,member'],
    ['comma-joined with spaces', 'member, admin'],
    ['an array', ['admin', 'member']],
    ['unknown', 'superuser'],
    ['a number', 1],
  ] as const

  it.each(BAD_ROLES)('(%s) in an invitation is a 400 naming role, nothing sent', async (_, role) => {
    const { admin, orgId } = suite.team
    const before = await invitations()
    const res = await admin.client.post(`${ORG}/invite-member`, {
      email: `new-${noise(6)}@example.com`,
      role,
      organizationId: orgId,
    })
    expectRefused(res, ['role'])
    expect(await invitations()).toEqual(before)
  })

  it.each(BAD_ROLES)('(%s) in a role change is a 400 naming role, nothing changed', async (_, role) => {
    const { admin, member, orgId } = suite.team
    const before = await members()
    const target = before.find((m) => m.user_id === member.id && m.organization_id === orgId)!
    const res = await admin.client.post(`${ORG}/update-member-role`, {
      memberId: target.id,
      role,
      organizationId: orgId,
    })
    expectRefused(res, ['role'])
    expect(await members()).toEqual(before)
  })

  it('an invitation to a 200 KB address is a 400 naming email, never a 500', async () => {
    const { admin, orgId } = suite.team
    const before = await invitations()
    const res = await admin.client.post(`${ORG}/invite-member`, {
      email: `${noise(200_000)}@example.com`,
      role: 'member',
      organizationId: orgId,
    })
    expectRefused(res, ['email'])
    expect(await invitations()).toEqual(before)
  })
})

// These held before 0532 (better-auth's own checks); they guard the role rules a change to the hook
// above, or an upgrade of better-auth, could break.
describe('a role change past what the sender may grant', () => {
  const memberRow = async (userId: string) =>
    (await members()).find((m) => m.user_id === userId && m.organization_id === suite.team.orgId)!

  it('is refused, and no role changes', async () => {
    const { owner, admin, member, orgId } = suite.team
    const before = await members()
    const attempts = [
      // An admin making someone, or themselves, an owner, in any spelling.
      [admin, await memberRow(member.id), 'owner'],
      [admin, await memberRow(member.id), 'owner,admin'],
      [admin, await memberRow(admin.id), 'owner'],
      // An admin demoting an owner.
      [admin, await memberRow(owner.id), 'member'],
      // A member granting themselves admin.
      [member, await memberRow(member.id), 'admin'],
    ] as const
    for (const [person, target, role] of attempts) {
      const res = await person.client.post(`${ORG}/update-member-role`, {
        memberId: target.id,
        role,
        organizationId: orgId,
      })
      expect(res.status, `${role}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
    }
    // An admin inviting an owner; a member inviting anyone.
    const owners = await suite.team.admin.client.post(`${ORG}/invite-member`, {
      email: `owner-${noise(6)}@example.com`,
      role: 'owner',
      organizationId: orgId,
    })
    expect(owners.status, JSON.stringify(owners.body)).toBe(403)
    const byMember = await member.client.post(`${ORG}/invite-member`, {
      email: `friend-${noise(6)}@example.com`,
      role: 'member',
      organizationId: orgId,
    })
    expect(byMember.status, JSON.stringify(byMember.body)).toBe(403)
    expect(await members()).toEqual(before)
  })
})

// better-auth refused another organisation with a 403 but cleared the session's organisation first,
// so the refused request moved the person (the next request picked their first organisation).
// The before-hook now refuses it before better-auth runs (decision 0532).
describe("a session's organisation changed through set-active", () => {
  const activeOrgsOf = async (userId: string) =>
    (await rows(sql`select active_organization_id as org from session where user_id = ${userId}`)).map(
      (r) => r.org,
    )
  /** The person's sessions, in the database and as get-session reads them, are all still in `orgId`. */
  async function expectStillIn(person: TeamPerson, orgId: string) {
    expect(await activeOrgsOf(person.id)).toEqual([orgId])
    const session = await person.client.get(`${AUTH}/get-session`)
    expect(session.body.session.activeOrganizationId).toBe(orgId)
  }
  const slugOf = async (orgId: string) => String((await organisations()).find((o) => o.id === orgId)!.slug)

  it.each([
    ['to another organisation by id', async () => ({ organizationId: suite.team.outsiderOrgId })],
    [
      'to another organisation by slug',
      async () => ({ organizationSlug: await slugOf(suite.team.outsiderOrgId) }),
    ],
    ['to an id no organisation has', async () => ({ organizationId: `no-such-${noise(8)}` })],
    ['to a slug no organisation has', async () => ({ organizationSlug: `no-such-${noise(8)}` })],
  ])('(%s) is a 403 in our shape, the session still in its organisation', async (_, body) => {
    const { member, orgId } = suite.team
    const res = await member.client.post(`${ORG}/set-active`, await body())
    expect(res.status, JSON.stringify(res.body)).toBe(403)
    await expectStillIn(member, orgId)
    expect(res.body.error, JSON.stringify(res.body)).toMatchObject({ code: 'forbidden' })
  })

  // Every page needs an organisation, so a session is never left in none.
  it.each([
    ['null (unset)', { organizationId: null }, ['organizationId']],
    ['a number', { organizationId: 42 }, ['organizationId']],
    ['an object', { organizationId: { id: 'x' } }, ['organizationId']],
    [
      'a slug as a number, an id as a list',
      { organizationId: ['x'], organizationSlug: 7 },
      ['organizationId', 'organizationSlug'],
    ],
  ])(
    '(%s) is a 400 naming each bad field, the session still in its organisation',
    async (_, body, fields) => {
      const { member, orgId } = suite.team
      expectRefused(await member.client.post(`${ORG}/set-active`, body), fields)
      await expectStillIn(member, orgId)
    },
  )

  // The invitation page's Open switches to the organisation an accepted invitation joined, through
  // set-active; one the person was removed from since is refused there too.
  it("from the invitation page's Open, once removed from that organisation, is refused and changes nothing", async () => {
    const { member, outsider, orgId, outsiderOrgId } = suite.team
    const invite = await outsider.client.post(`${ORG}/invite-member`, {
      email: member.email,
      role: 'member',
      organizationId: outsiderOrgId,
    })
    expect(invite.status, JSON.stringify(invite.body)).toBe(200)
    const accepted = await member.client.post(`${ORG}/accept-invitation`, { invitationId: invite.body.id })
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
    await member.client.post(`${ORG}/set-active`, { organizationId: orgId })
    await expectStillIn(member, orgId)
    const removed = await outsider.client.post(`${ORG}/remove-member`, {
      memberIdOrEmail: member.email,
      organizationId: outsiderOrgId,
    })
    expect(removed.status, JSON.stringify(removed.body)).toBe(200)
    const page = await member.client.request(
      'POST',
      `/accept-invitation/${invite.body.id}.data`,
      new URLSearchParams({ intent: 'open' }).toString(),
      { 'content-type': 'application/x-www-form-urlencoded' },
    )
    const text = typeof page.body === 'string' ? page.body : JSON.stringify(page.body)
    expect(page.status, text.slice(0, 300)).toBe(200)
    await expectStillIn(member, orgId)
    expect(text).toContain('You are not a member of that organisation')
  })

  it("to another of the person's own organisations, by slug or by id, still switches", async () => {
    const { member, orgId } = suite.team
    const [workspace] = await rows(
      sql`select organization_id as id from member where user_id = ${member.id} and organization_id <> ${orgId}`,
    )
    const bySlug = await member.client.post(`${ORG}/set-active`, {
      organizationSlug: await slugOf(String(workspace!.id)),
    })
    expect(bySlug.status, JSON.stringify(bySlug.body)).toBe(200)
    await expectStillIn(member, String(workspace!.id))
    const byId = await member.client.post(`${ORG}/set-active`, { organizationId: orgId })
    expect(byId.status, JSON.stringify(byId.body)).toBe(200)
    await expectStillIn(member, orgId)
  })
})
