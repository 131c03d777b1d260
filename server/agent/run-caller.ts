/**
 * The identity an unattended run acts with: the run-as user (the author of the job's current
 * instructions) in the job's organisation, with their current role. Built from the database,
 * never from the job's content (invariant 4); someone who left the organisation cannot run.
 */
import { findMembership, findUser } from '../accounts/store.ts'
import { callerFrom, type Caller } from '../access/caller.ts'

/** The caller for a run as `userId` in `orgId`, or null when they are not (or no longer) a member. */
export async function loadRunCaller(userId: string, orgId: string): Promise<Caller | null> {
  const [user, membership] = await Promise.all([findUser(userId), findMembership(userId, orgId)])
  if (!user || !membership) return null
  return callerFrom(user, membership)
}
