/** The caller: who is asking, in which organisation, with which role (resolved by auth/caller.ts). */
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

export const isOrgAdmin = (caller: Pick<Caller, 'role'>) => caller.role === 'owner' || caller.role === 'admin'

/** A member's role as better-auth stores it (possibly comma-joined): the strongest one counts. */
export function strongestRole(role: string): OrgRole {
  const roles = role.split(',').map((r) => r.trim())
  if (roles.includes('owner')) return 'owner'
  if (roles.includes('admin')) return 'admin'
  return 'member'
}
