/**
 * A conversation's tools act only while its person keeps the place they started it with. The
 * caller of a chat turn or a job run is read once, when it starts; a turn or a run lasts minutes,
 * and an admin who removes a member, or demotes an admin, expects their agent to stop acting with
 * the old rights at its next tool call, not when the turn ends (decision 0476).
 */
import type { Tool } from 'ai'
import { findMembership } from '../accounts/store.ts'
import { roleOf, type Caller, type OrgRole } from '../access/caller.ts'
import { forbidden, type HttpError } from '../lib/errors.ts'
import { toToolFailure } from './tool-context.ts'

const RANK: Record<OrgRole, number> = { member: 0, admin: 1, owner: 2 }

/** Why `caller` may no longer act in their organisation with their role, or null while they may. */
async function placeLost(caller: Caller): Promise<HttpError | null> {
  const membership = await findMembership(caller.userId, caller.orgId)
  if (!membership) {
    return forbidden(
      `${caller.name} is no longer a member of ${caller.orgName}: this conversation can act no more`,
    )
  }
  // A promotion keeps the rights the conversation started with; only a demotion stops it.
  if (RANK[roleOf(membership.role)] < RANK[caller.role]) {
    return forbidden(
      `${caller.name}'s role in ${caller.orgName} changed since this conversation began: start a new one`,
    )
  }
  return null
}

/** `tools`, each checking before it runs that the conversation's person still holds their place. */
export function whileMember<T extends Record<string, Tool>>(caller: Caller, tools: T): T {
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => {
      const execute = tool.execute
      if (!execute) return [name, tool]
      const guarded: Tool = {
        ...tool,
        execute: async (input, options) => {
          const lost = await placeLost(caller)
          return lost ? toToolFailure(lost, name) : execute(input, options)
        },
      }
      return [name, guarded]
    }),
  ) as T
}
