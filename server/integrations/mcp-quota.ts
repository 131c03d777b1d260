/**
 * The limit on MCP servers (decision 0456): the agent lists the tools of every server a person
 * sees at the start of each chat and run, and the settings page reads them all, so one member must
 * not be able to register without end. A person's own servers in an organisation and the
 * organisation's shared ones are counted apart.
 */
import type { Db } from '../db/client.ts'
import { checkRoom } from '../db/lock.ts'
import { quotaExceeded } from '../lib/errors.ts'
import { countServers, type McpServerRow } from './mcp-store.ts'

/** Servers one scope may hold; each adds its tools to every prompt, so few are useful at once. */
export const MAX_MCP_SERVERS_PER_SCOPE = 20

/**
 * Checks that one more server fits in `scope` (the organisation's, or the caller's own there). Call
 * it in the creating transaction: creates in one scope take turns until it ends, since two at once
 * would otherwise both count the same room and both take it.
 *
 * @throws HttpError 403 `quota_exceeded`
 */
export async function checkMcpServerQuota(
  caller: { orgId: string; userId: string },
  scope: McpServerRow['scope'],
  tx: Db,
): Promise<void> {
  const whose = scope === 'org' ? caller.orgId : `${caller.orgId}:${caller.userId}`
  const holder = scope === 'org' ? 'This organisation already has' : 'You already have'
  await checkRoom(
    tx,
    `mcp-servers:${scope}:${whose}`,
    MAX_MCP_SERVERS_PER_SCOPE,
    () => countServers(caller.orgId, scope, caller.userId, tx),
    () =>
      quotaExceeded(
        `${holder} ${MAX_MCP_SERVERS_PER_SCOPE} ${scope === 'org' ? 'shared' : 'personal'} MCP servers, ` +
          'the most one scope may register: remove one first',
      ),
  )
}
