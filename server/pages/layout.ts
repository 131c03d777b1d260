import type { Caller } from '../auth/caller.ts'
import { listMemberships } from '../accounts/store.ts'
import { countUnread } from '../integrations/views.ts'

/** What the app layout shows about the caller: who, where, and where else they could be. */
export async function getLayoutData(caller: Caller) {
  const [memberships, unread] = await Promise.all([listMemberships(caller.userId), countUnread(caller)])
  return {
    /** Unread alerts (the header's bell). */
    unread,
    user: { id: caller.userId, name: caller.name, email: caller.email, timezone: caller.timezone },
    org: { id: caller.orgId, name: caller.orgName, role: caller.role },
    orgs: memberships.map((m) => ({ id: m.orgId, name: m.orgName, role: m.role })),
  }
}
