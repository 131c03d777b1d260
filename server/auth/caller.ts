/**
 * The caller: who is asking, in which organisation, with which role. Always
 * resolved from the session cookie, never from request content (invariant 4).
 */
import { findMembership, listMemberships } from '../accounts/store.ts'
import { unauthorized } from '../lib/errors.ts'
import { getAuth } from './auth.ts'
import { callerFrom, type Caller } from '../access/caller.ts'
import { cachedCaller } from '../access/caller-cache.ts'

// The Caller type lives with the access rules (a lower layer that judges callers); it is
// re-exported here because this is where callers come from.
export { isOrgAdmin, type Caller, type OrgRole } from '../access/caller.ts'

// A page request runs several loaders (layout, route) on one Request: resolve its caller once.
const perRequest = new WeakMap<Request, Promise<Caller | null>>()

/**
 * The signed-in caller, or null without a valid session (or with no organisation left). Read once
 * per request, and shared for a few seconds between requests of one session (caller-cache.ts).
 */
export async function getCaller(request: Request): Promise<Caller | null> {
  let caller = perRequest.get(request)
  if (!caller) {
    caller = cachedCaller(request.headers, () => resolveCaller(request))
    perRequest.set(request, caller)
  }
  const found = await caller
  // A copy: the cached caller is shared, and nobody downstream may change it for the others.
  return found && { ...found }
}

async function resolveCaller(request: Request): Promise<Caller | null> {
  const session = await getAuth().api.getSession({ headers: request.headers })
  if (!session) return null
  const { user } = session
  const activeOrgId = session.session.activeOrganizationId
  const membership =
    (activeOrgId ? await findMembership(user.id, activeOrgId) : undefined) ??
    (await listMemberships(user.id))[0]
  if (!membership) return null
  return callerFrom(user, membership)
}

/** The caller, or a 401. */
export async function requireCaller(request: Request): Promise<Caller> {
  const caller = await getCaller(request)
  if (!caller) throw unauthorized()
  return caller
}
