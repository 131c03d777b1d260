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
