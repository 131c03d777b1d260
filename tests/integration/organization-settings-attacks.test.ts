/**
 * Settings → Organisation renames and deletes the caller's organisation, and the switcher's New
 * organisation makes one (server/pages/settings-organisation.ts, decision 0530); better-auth's
 * POST /auth/organization/update and /delete do the same over HTTP. Each attack is written as the
 * request of the person trying it, through both doors: a member renaming, an admin deleting, a
 * member of one organisation renaming or deleting another by its id, a bad name, and deleting one's
 * only organisation. Each must be refused and change nothing.
 */
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import type { TeamPerson } from '#tests/support/team.ts'
import { withTeamApp } from '#tests/support/team-app.ts'

const suite = withTeamApp()
const ORG = '/_agent-native/auth/organization'
const PAGE = '/settings/organisation.data'

type OrgRow = { id: string; name: string; slug: string; logo: string | null }
const organisations = () =>
  queryRows<OrgRow>(suite.app.server.db.db, sql`select id, name, slug, logo from organization order by id`)
const organisation = async (id: string) => (await organisations()).find((o) => o.id === id)

/** The page's action, as the person's browser posts it (React Router's `.data` request). */
async function postPage(person: TeamPerson, fields: Record<string, string>) {
  const res = await person.client.request('POST', PAGE, new URLSearchParams(fields).toString(), {
    'content-type': 'application/x-www-form-urlencoded',
  })
  const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body)
  expect(res.status, text.slice(0, 300)).toBeLessThan(500)
  return text
}

const activeOrgId = async (person: TeamPerson): Promise<string> =>
  (await person.client.get('/_agent-native/auth/get-session')).body.session.activeOrganizationId

describe('a member renaming their organisation', () => {
  it('is refused on the page and over HTTP, the name unchanged', async () => {
    const { member, orgId } = suite.team
    const before = await organisations()
    const page = await postPage(member, { intent: 'rename', name: 'Taken over' })
    expect(page).toContain('Only owners and admins can rename the organisation')
    const viaActive = await member.client.post(`${ORG}/update`, { data: { name: 'Taken over' } })
    expect(viaActive.status, JSON.stringify(viaActive.body)).toBe(403)
    const viaId = await member.client.post(`${ORG}/update`, {
      organizationId: orgId,
      data: { name: 'Taken over' },
    })
    expect(viaId.status, JSON.stringify(viaId.body)).toBe(403)
    expect(await organisations()).toEqual(before)
  })
})

describe('an admin deleting their organisation', () => {
  it('is refused on the page and over HTTP (owners only), nothing deleted', async () => {
    const { admin, orgId } = suite.team
    const name = (await organisation(orgId))!.name
    const before = await organisations()
    const page = await postPage(admin, { intent: 'delete', confirmName: name })
    expect(page).toContain('Only owners can delete the organisation')
    const viaHttp = await admin.client.post(`${ORG}/delete`, { organizationId: orgId })
    expect(viaHttp.status, JSON.stringify(viaHttp.body)).toBe(403)
    expect(await organisations()).toEqual(before)
  })
})

describe('a member of one organisation acting on another by its id', () => {
  it('cannot rename or delete it over HTTP', async () => {
    const { member, owner, outsiderOrgId } = suite.team
    const before = await organisations()
    for (const person of [member, owner]) {
      const renamed = await person.client.post(`${ORG}/update`, {
        organizationId: outsiderOrgId,
        data: { name: 'Taken over' },
      })
      expect(renamed.status, JSON.stringify(renamed.body)).toBeGreaterThanOrEqual(400)
      expect(renamed.status).toBeLessThan(500)
      const deleted = await person.client.post(`${ORG}/delete`, { organizationId: outsiderOrgId })
      expect(deleted.status, JSON.stringify(deleted.body)).toBeGreaterThanOrEqual(400)
      expect(deleted.status).toBeLessThan(500)
    }
    expect(await organisations()).toEqual(before)
  })

  it('cannot reach it through the page: the form’s organizationId is never read', async () => {
    const { admin, outsider, orgId, outsiderOrgId } = suite.team
    const theirs = (await organisation(outsiderOrgId))!
    // The admin may rename their own organisation: the page renames that one, not the id posted.
    await postPage(admin, { intent: 'rename', name: 'Renamed by its admin', organizationId: outsiderOrgId })
    expect((await organisation(orgId))!.name).toBe('Renamed by its admin')
    expect(await organisation(outsiderOrgId)).toEqual(theirs)

    // The outsider owns only their own: deleting "A" by id is the delete of theirs, refused.
    const before = await organisations()
    const page = await postPage(outsider, {
      intent: 'delete',
      confirmName: theirs.name,
      organizationId: orgId,
    })
    expect(page).toContain('This is your only organisation')
    expect(await organisations()).toEqual(before)
  })
})

describe('a bad name', () => {
  const bad = [
    ['empty', ''],
    ['blank', '   '],
    ['too long', 'x'.repeat(101)],
    ['a control character', 'Acme\u0007Corp'],
    ['a line break', 'Acme\nCorp'],
    ['a carriage return', 'Acme\rCorp'],
  ] as const

  it.each(bad)('(%s) is a 400 naming name over HTTP, nothing changed or made', async (_, name) => {
    const { owner, orgId } = suite.team
    const before = await organisations()
    const renamed = await owner.client.post(`${ORG}/update`, { organizationId: orgId, data: { name } })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(400)
    expect(renamed.body.error).toMatchObject({ field: 'name' })
    const made = await owner.client.post(`${ORG}/create`, { name, slug: `bad-name-${Date.now()}` })
    expect(made.status, JSON.stringify(made.body)).toBe(400)
    expect(made.body.error).toMatchObject({ field: 'name' })
    expect(await organisations()).toEqual(before)
  })

  it.each(bad)('(%s) is refused on the page naming name, for a rename and a create', async (_, name) => {
    const { owner } = suite.team
    const before = await organisations()
    for (const intent of ['rename', 'create']) {
      const page = await postPage(owner, { intent, name })
      expect(page, intent).toMatch(/"name: (is required|must be at most 100 characters|must be one line)/)
      expect(page, intent).toContain('"name"')
    }
    expect(await organisations()).toEqual(before)
  })
})

// The slug rides along on the same two endpoints, and better-auth checks only that it is a string.
describe('a bad slug', () => {
  it.each([
    ['a NUL', 'acme\u0000corp'],
    ['too long', 'a'.repeat(64)],
    ['not a slug', 'Acme Corp\n'],
  ] as const)(
    '(%s) is a 400 naming slug over HTTP, never a 500, nothing changed or made',
    async (_, slug) => {
      const { owner, orgId } = suite.team
      const before = await organisations()
      const renamed = await owner.client.post(`${ORG}/update`, { organizationId: orgId, data: { slug } })
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(400)
      expect(renamed.body.error).toMatchObject({ field: 'slug' })
      const made = await owner.client.post(`${ORG}/create`, { name: 'Slugged', slug })
      expect(made.status, JSON.stringify(made.body)).toBe(400)
      expect(made.body.error).toMatchObject({ field: 'slug' })
      expect(await organisations()).toEqual(before)
    },
  )
})

describe('several bad fields at once', () => {
  it('are each named in one 400', async () => {
    const { owner, orgId } = suite.team
    const before = await organisations()
    const res = await owner.client.post(`${ORG}/update`, {
      organizationId: orgId,
      data: { name: '', slug: 'Not A Slug', logo: 'a\nb' },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.error.fields.map((f: { field: string }) => f.field)).toEqual(['name', 'slug', 'logo'])
    expect(await organisations()).toEqual(before)
  })
})

describe('a bad logo', () => {
  it.each([
    ['a NUL', 'https://example.com/logo\u0000.png'],
    ['two lines', 'https://example.com/logo.png\nX-Evil: 1'],
    ['too long', `https://example.com/${'a'.repeat(2048)}`],
  ] as const)(
    '(%s) is a 400 naming logo over HTTP, never a 500, nothing changed or made',
    async (_, logo) => {
      const { owner, orgId } = suite.team
      const before = await organisations()
      const updated = await owner.client.post(`${ORG}/update`, { organizationId: orgId, data: { logo } })
      expect(updated.status, JSON.stringify(updated.body)).toBe(400)
      expect(updated.body.error).toMatchObject({ field: 'logo' })
      const made = await owner.client.post(`${ORG}/create`, { name: 'Logoed', slug: 'logoed', logo })
      expect(made.status, JSON.stringify(made.body)).toBe(400)
      expect(made.body.error).toMatchObject({ field: 'logo' })
      expect(await organisations()).toEqual(before)
    },
  )
})

describe("deleting one's only organisation", () => {
  it('is a 409 on the page and over HTTP, nothing deleted', async () => {
    const { outsider, outsiderOrgId } = suite.team
    const name = (await organisation(outsiderOrgId))!.name
    const before = await organisations()
    const page = await postPage(outsider, { intent: 'delete', confirmName: name })
    expect(page).toContain('This is your only organisation, so it cannot be deleted')
    const viaHttp = await outsider.client.post(`${ORG}/delete`, { organizationId: outsiderOrgId })
    expect(viaHttp.status, JSON.stringify(viaHttp.body)).toBe(409)
    expect(await organisations()).toEqual(before)
  })

  it('is not reached without the name typed: a wrong one is a 400 naming confirmName', async () => {
    const { owner } = suite.team
    const before = await organisations()
    const page = await postPage(owner, { intent: 'delete', confirmName: 'not its name' })
    expect(page).toContain("confirmName: type the organisation's name")
    expect(await organisations()).toEqual(before)
  })
})

// Last: the owner makes, renames and deletes an organisation of their own, moving their session.
describe('the owner’s own organisation, through the page', () => {
  it('is made with a slug from its name, renamed, and deleted, landing in another', async () => {
    const { owner, orgId } = suite.team
    await postPage(owner, { intent: 'create', name: 'Acme Research!' })
    const made = (await organisations()).find((o) => o.name === 'Acme Research!')
    expect(made?.slug).toBe('acme-research')
    expect(await activeOrgId(owner)).toBe(made!.id)
    // The same name again: the slug is made unique.
    await postPage(owner, { intent: 'create', name: 'Acme Research!' })
    const twins = (await organisations()).filter((o) => o.name === 'Acme Research!')
    expect(twins.map((o) => o.slug).sort()).toEqual(['acme-research', 'acme-research-2'])
    const second = twins.find((o) => o.slug === 'acme-research-2')!
    expect(await activeOrgId(owner)).toBe(second.id)

    await postPage(owner, { intent: 'rename', name: 'Acme Labs' })
    expect((await organisation(second.id))!.name).toBe('Acme Labs')

    await postPage(owner, { intent: 'delete', confirmName: 'Acme Labs' })
    expect(await organisation(second.id)).toBeUndefined()
    // Their oldest organisation is active again.
    expect(await activeOrgId(owner)).toBe(orgId)
  })
})

describe('creates from the page', () => {
  it('sent at once take turns: each gets its own slug, and past the limit nothing is made', async () => {
    const client = suite.app.client()
    const user = await client.signUp('Burst Maker', `burst-${Date.now()}@example.com`)
    const person: TeamPerson = { client, id: user.id, email: user.email, name: user.name }
    // One owned already (their workspace); the default limit is 20.
    const pages = await Promise.all(
      Array.from({ length: 21 }, () => postPage(person, { intent: 'create', name: 'Burst' })),
    )
    const made = (await organisations()).filter((o) => o.name === 'Burst')
    expect(made).toHaveLength(19)
    expect(new Set(made.map((o) => o.slug)).size).toBe(19)
    expect(made.map((o) => o.slug)).toContain('burst')
    const refused = pages.filter((text) => text.includes('the most one person may own'))
    expect(refused).toHaveLength(2)
  })
})
