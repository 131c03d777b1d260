/** The caller: who is asking, in which organisation, with which role (resolved by auth/caller.ts). */
import { quoteText } from '../lib/text.ts'

export type OrgRole = 'owner' | 'admin' | 'member'

export type Caller = {
  userId: string
  email: string
  name: string
  timezone: string | null
  orgId: string
  orgName: string
  role: OrgRole
  /** Set when the person acts through one of their personal access tokens (the MCP server). */
  via?: { tokenId: string; tokenName: string }
}

/**
 * What the audit trail says about a token's writes (`via access token "laptop" (pat_…)`), or null.
 * The name is its owner's text, so it is quoted (a `"` in it escaped): it cannot end early and go on
 * to read as another token or a second "via" (decision 0417).
 */
export const viaNote = (caller: Pick<Caller, 'via'>): string | null =>
  caller.via ? `via access token ${quoteText(caller.via.tokenName)} (${caller.via.tokenId})` : null

export const isOrgAdmin = (caller: Pick<Caller, 'role'>) => caller.role === 'owner' || caller.role === 'admin'

/** A member's role as better-auth stores it (possibly comma-joined): the strongest one counts. */
export function roleOf(role: string): OrgRole {
  const roles = role.split(',').map((r) => r.trim())
  if (roles.includes('owner')) return 'owner'
  if (roles.includes('admin')) return 'admin'
  return 'member'
}

/** A caller from a user row and one of their memberships (the session's or a run's). */
export function callerFrom(
  user: { id: string; email: string; name: string; timezone?: string | null },
  membership: { orgId: string; orgName: string; role: string },
): Caller {
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    timezone: user.timezone ?? null,
    orgId: membership.orgId,
    orgName: membership.orgName,
    role: roleOf(membership.role),
  }
}
