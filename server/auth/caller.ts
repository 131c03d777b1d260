/**
 * The caller: who is asking, in which organisation, with which role. Always
 * resolved from the session cookie, never from request content (invariant 4).
 */
import { findMembership, listMemberships } from '../accounts/store.ts'
import { unauthorized } from '../http/errors.ts'
import { getAuth } from './auth.ts'

export type OrgRole = 'owner' | 'admin' | 'member'

export type Caller = {
  userId: string
  email: string
  name: string
  timezone: string | null
  orgId: string
  orgName: string
  role: OrgRole
}

function asRole(role: string): OrgRole {
  // better-auth allows comma-joined roles; the strongest one counts.
  const roles = role.split(',').map((r) => r.trim())
  if (roles.includes('owner')) return 'owner'
  if (roles.includes('admin')) return 'admin'
  return 'member'
}

/** The signed-in caller, or null without a valid session (or with no organisation left). */
export async function getCaller(request: Request): Promise<Caller | null> {
  const session = await getAuth().api.getSession({ headers: request.headers })
  if (!session) return null
  const { user } = session
  const activeOrgId = session.session.activeOrganizationId
  const membership =
    (activeOrgId ? await findMembership(user.id, activeOrgId) : undefined) ??
    (await listMemberships(user.id))[0]
  if (!membership) return null
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    timezone: (user as { timezone?: string | null }).timezone ?? null,
    orgId: membership.orgId,
    orgName: membership.orgName,
    role: asRole(membership.role),
  }
}

/** The caller, or a 401. */
export async function requireCaller(request: Request): Promise<Caller> {
  const caller = await getCaller(request)
  if (!caller) throw unauthorized()
  return caller
}

export const isOrgAdmin = (caller: Pick<Caller, 'role'>) => caller.role === 'owner' || caller.role === 'admin'
