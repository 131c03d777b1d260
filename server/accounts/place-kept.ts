/**
 * Whether the person behind something long-running still holds the place it started with. A chat
 * turn, a job run and a harness run read their caller once, when they start, and last minutes; an
 * admin who removes a member, or demotes an admin, expects what that person set going to stop
 * acting with the old rights at its next step (decision 0476): a tool call of the agent
 * (agent/while-member.ts), or a model call, hook decision or MCP call of a harness
 * (harness/endpoint.ts). One rule for all of them, read from the membership each time: one indexed
 * read, so a departure recorded on any instance is seen at the next step.
 */
import { roleOf, type Caller, type OrgRole } from '../access/caller.ts'
import { forbidden, type HttpError } from '../lib/errors.ts'
import { findMembership } from './store.ts'

const RANK: Record<OrgRole, number> = { member: 0, admin: 1, owner: 2 }

/** Whether going from role `from` to `to` is a demotion (a conversation begun as `from` stops). */
export function isDemotion(from: string, to: string): boolean {
  return RANK[roleOf(to)] < RANK[roleOf(from)]
}

/**
 * Why `caller` may no longer act in their organisation with their role, or null while they may;
 * `what` names what stops in the message (e.g. `this conversation`).
 */
export async function placeLost(caller: Caller, what: string): Promise<HttpError | null> {
  const membership = await findMembership(caller.userId, caller.orgId)
  if (!membership) {
    return forbidden(`${caller.name} is no longer a member of ${caller.orgName}: ${what} can act no more`)
  }
  // A promotion keeps the rights it started with; only a demotion stops it.
  if (RANK[roleOf(membership.role)] < RANK[caller.role]) {
    return forbidden(
      `${caller.name}'s role in ${caller.orgName} changed since ${what} began: start a new one`,
    )
  }
  return null
}
