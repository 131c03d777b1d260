/**
 * A signed-in team for access tests: organisation A with an owner, an admin, a plain member and a
 * "creator" (another plain member, who makes the jobs under test), plus an outsider who owns
 * organisation B. Each person is an ApiClient with their own session, active in their org.
 */
import { randomBytes } from 'node:crypto'
import type { ApiClient } from './api-client.ts'
import type { TestApp } from './test-app.ts'

export type TeamRole = 'owner' | 'admin' | 'member' | 'creator' | 'outsider'
export type TeamPerson = { client: ApiClient; id: string; email: string; name: string }
export type Team = Record<TeamRole, TeamPerson> & { orgId: string; outsiderOrgId: string }

const activeOrgId = async (client: ApiClient): Promise<string> =>
  (await client.get('/_agent-native/auth/get-session')).body.session.activeOrganizationId

async function signUp(app: TestApp, name: string, tag: string): Promise<TeamPerson> {
  const client = app.client()
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${tag}@example.com`
  const user = await client.signUp(name, email)
  return { client, id: user.id, email, name }
}

/**
 * `inviter` (an owner or admin of `orgId`) invites `person`'s address and `person` accepts, staying
 * active in the organisation they were in.
 */
export async function inviteAndAccept(
  inviter: ApiClient,
  person: { client: ApiClient; email: string },
  orgId: string,
  role: 'admin' | 'member' = 'member',
) {
  const invite = await inviter.post('/_agent-native/auth/organization/invite-member', {
    email: person.email,
    role,
    organizationId: orgId,
  })
  if (invite.status !== 200) throw new Error(`invite failed: ${invite.status} ${JSON.stringify(invite.body)}`)
  const accept = await person.client.post('/_agent-native/auth/organization/accept-invitation', {
    invitationId: invite.body.id,
  })
  if (accept.status !== 200) throw new Error(`accept failed: ${accept.status} ${JSON.stringify(accept.body)}`)
}

async function join(owner: TeamPerson, person: TeamPerson, orgId: string, role: 'admin' | 'member') {
  await inviteAndAccept(owner.client, person, orgId, role)
  await person.client.post('/_agent-native/auth/organization/set-active', { organizationId: orgId })
}

/** Signs up a fresh team (unique emails per call, so one app can hold several teams). */
export async function createTeam(app: TestApp): Promise<Team> {
  const tag = randomBytes(3).toString('hex')
  const owner = await signUp(app, 'Olga Owner', tag)
  const orgId = await activeOrgId(owner.client)
  const admin = await signUp(app, 'Adam Admin', tag)
  const member = await signUp(app, 'Mia Member', tag)
  const creator = await signUp(app, 'Cleo Creator', tag)
  await join(owner, admin, orgId, 'admin')
  await join(owner, member, orgId, 'member')
  await join(owner, creator, orgId, 'member')
  const outsider = await signUp(app, 'Otto Outsider', tag)
  const outsiderOrgId = await activeOrgId(outsider.client)
  return { owner, admin, member, creator, outsider, orgId, outsiderOrgId }
}
