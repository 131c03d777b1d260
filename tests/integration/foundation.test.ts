import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

let app: TestApp

beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.close())

describe('API basics', () => {
  it('reports health with the database kind', async () => {
    const res = await app.client().get('/_agent-native/health')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, db: 'postgres' })
  })

  it('answers 401 JSON on protected and unknown API paths without a session', async () => {
    for (const path of ['/_agent-native/jobs', '/_agent-native/nope/deeper', '/_agent-native/runs/x']) {
      const res = await app.client().get(path)
      expect(res.status, path).toBe(401)
      expect(res.body.error.code).toBe('unauthorized')
    }
    const post = await app.client().post('/_agent-native/jobs', { name: 'x' })
    expect(post.status).toBe(401)
  })

  it('answers a JSON 404 for an unknown API path with a session', async () => {
    const ana = app.client()
    await ana.signUp('Ana Lima', 'ana-404@example.com')
    const res = await ana.get('/_agent-native/does-not-exist')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(res.body.error).toMatchObject({ code: 'not_found' })
  })

  it('sends visitors without a session to sign-in, and back afterwards', async () => {
    const res = await app.client().get('/jobs?scope=shared')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/sign-in?redirectTo=%2Fjobs%3Fscope%3Dshared')
  })
})

describe('accounts and organisations', () => {
  it('gives every new user an organisation of their own, as owner, made active', async () => {
    const ana = app.client()
    await ana.signUp('Ana Lima', 'ana@example.com')
    const session = await ana.get('/_agent-native/auth/get-session')
    expect(session.body.session.activeOrganizationId).toBeTruthy()
    const org = await ana.get('/_agent-native/auth/organization/get-full-organization')
    expect(org.status).toBe(200)
    expect(org.body.name).toBe("Ana's workspace")
    expect(org.body.members).toHaveLength(1)
    expect(org.body.members[0]).toMatchObject({ role: 'owner' })
  })

  it('invites a member by email, who accepts and gets the role; only admins may invite', async () => {
    const owner = app.client()
    await owner.signUp('Olga Owner', 'olga@example.com')
    const orgId = (await owner.get('/_agent-native/auth/get-session')).body.session.activeOrganizationId

    const invite = await owner.post('/_agent-native/auth/organization/invite-member', {
      email: 'max@example.com',
      role: 'member',
      organizationId: orgId,
    })
    expect(invite.status).toBe(200)

    const max = app.client()
    await max.signUp('Max Member', 'max@example.com')
    const accept = await max.post('/_agent-native/auth/organization/accept-invitation', {
      invitationId: invite.body.id,
    })
    expect(accept.status).toBe(200)
    await max.post('/_agent-native/auth/organization/set-active', { organizationId: orgId })

    const full = await owner.get('/_agent-native/auth/organization/get-full-organization')
    const roles = Object.fromEntries(full.body.members.map((m: any) => [m.user.email, m.role]))
    expect(roles).toEqual({ 'olga@example.com': 'owner', 'max@example.com': 'member' })

    // A member may not invite.
    const denied = await max.post('/_agent-native/auth/organization/invite-member', {
      email: 'eve@example.com',
      role: 'member',
      organizationId: orgId,
    })
    expect(denied.status).toBe(403)

    // The members page lists both with their roles.
    const page = await owner.get('/settings/members')
    expect(page.status).toBe(200)
    expect(page.body).toContain('max@example.com')
  })

  it('signs out', async () => {
    const ana = app.client()
    await ana.signUp('Sam Out', 'sam@example.com')
    expect((await ana.post('/_agent-native/auth/sign-out', {})).status).toBe(200)
    expect((await ana.get('/_agent-native/jobs')).status).toBe(401)
  })
})

describe('health when the database is gone', () => {
  it('answers 503', async () => {
    await app.server.db.close()
    const res = await app.client().get('/_agent-native/health')
    expect(res.status).toBe(503)
    expect(res.body.ok).toBe(false)
  })
})
