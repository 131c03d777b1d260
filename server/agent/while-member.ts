/**
 * A conversation's tools act only while its person keeps the place they started it with. The
 * caller of a chat turn or a job run is read once, when it starts; a turn or a run lasts minutes,
 * and an admin who removes a member, or demotes an admin, expects their agent to stop acting with
 * the old rights at its next tool call, not when the turn ends (decision 0476; the rule is
 * accounts/place-kept.ts, which a harness run's endpoint asks too).
 */
import type { Tool } from 'ai'
import type { Caller } from '../access/caller.ts'
import { placeLost } from '../accounts/place-kept.ts'
import { guardTool } from './guard-tool.ts'
import { toToolFailure } from './tool-context.ts'

/** `tools`, each checking before it runs that the conversation's person still holds their place. */
export function whileMember<T extends Record<string, Tool>>(caller: Caller, tools: T): T {
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => [
      name,
      guardTool(tool, async () => {
        const lost = await placeLost(caller, 'this conversation')
        return lost ? toToolFailure(lost, name) : undefined
      }),
    ]),
  ) as T
}
