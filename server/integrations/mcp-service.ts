/**
 * MCP servers as people manage them (`/_agent-native/mcp-servers`) and as the agent uses them.
 * A person registers servers for themselves; owners and admins for the organisation. Everyone sees
 * the org's servers; only whoever may change a server sees its headers. When a personal server
 * and an org server share a name, the org's wins in the agent's tool set (names are tool prefixes).
 * Header secrets follow docs/decisions/0220: a personal server sends only its owner's own secrets,
 * an org server the organisation's while whoever saved it last is an admin.
 */
import { isOrgAdmin, type Caller } from '../access/caller.ts'
import { getDb } from '../db/client.ts'
import type { McpHeaderValue } from '../db/schema/mcp.ts'
import { isUniqueViolation } from '../jobs/store.ts'
import { firstRefusedSecret, secretOwnerFor } from '../keys/secret-rules.ts'
import { resolveSecretValues } from '../keys/secrets-service.ts'
import { badRequest, conflict, forbidden, HttpError, notFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { logger } from '../lib/logger.ts'
import { parseInput } from '../lib/validate.ts'
import { outboundRefusal } from '../lib/integration-fetch.ts'
import {
  listMcpTools,
  McpFailure,
  mcpStatus,
  noteMcpFailure,
  refusedMessage,
  type McpEndpoint,
} from './mcp-client.ts'
import { checkMcpServerQuota } from './mcp-quota.ts'
import { McpServerInput, McpServerPatch, type McpServerView, type McpStatus } from './mcp-schema.ts'
import {
  deleteServer,
  insertServer,
  selectVisibleServer,
  selectVisibleServers,
  updateServer,
  type McpServerRow,
} from './mcp-store.ts'

type Who = Pick<Caller, 'userId' | 'orgId' | 'role'>

const canEdit = (caller: Who, row: Pick<McpServerRow, 'scope' | 'createdBy'>) =>
  row.scope === 'org' ? isOrgAdmin(caller) : row.createdBy === caller.userId

const keyOf = (row: Pick<McpServerRow, 'id' | 'updatedAt'>) => `${row.id}@${row.updatedAt.getTime()}`

function view(caller: Who, row: McpServerRow): McpServerView {
  const editable = canEdit(caller, row)
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    scope: row.scope,
    headers: editable ? row.headers : null,
    canEdit: editable,
    status: mcpStatus(keyOf(row)),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

export async function listMcpServers(caller: Who): Promise<McpServerView[]> {
  return (await selectVisibleServers(caller.orgId, caller.userId)).map((row) => view(caller, row))
}

async function findEditable(caller: Who, id: string): Promise<McpServerRow> {
  const row = await selectVisibleServer(caller.orgId, caller.userId, id)
  if (!row) throw notFound(`No MCP server ${id}`)
  if (!canEdit(caller, row))
    throw forbidden("Only the organisation's admins and owners may change its MCP servers")
  return row
}

const taken = (name: string) => conflict(`name: an MCP server named ${name} already exists`, 'name')

/** Refuses header secrets the caller may not send from a server of this scope (400 `headers.<Name>`). */
async function checkHeaderSecrets(
  caller: Who,
  scope: McpServerRow['scope'],
  headers: Record<string, McpHeaderValue>,
) {
  const named = Object.entries(headers).flatMap(([header, value]) => {
    const secret = headerSecret(value)
    return secret ? [{ header, secret }] : []
  })
  const names = named.map((n) => n.secret)
  const refused = await firstRefusedSecret(caller, scope === 'org' ? 'shared' : 'personal', names)
  if (!refused) return
  const field = `headers.${named[refused.index]!.header}`
  throw badRequest(`${field}: ${refused.message}`, field)
}

/**
 * Refuses a URL the outbound rule would refuse when the server is used, now, with the message
 * "Test connection" would show (400 `url`): org servers may reach hosts named in
 * INTEGRATIONS_ALLOW_HOSTS, personal ones public addresses only.
 */
async function checkUrl(name: string, url: string, scope: McpServerRow['scope']) {
  const refusal = await outboundRefusal(url, { adminRegistered: scope === 'org' })
  if (refusal) throw badRequest(`url: ${refusedMessage(name, refusal)}`, 'url')
}

/** Registers a server; a new one must fit in its scope's limit (403 `quota_exceeded`, MAX_MCP_SERVERS_PER_SCOPE). */
export async function createMcpServer(caller: Who, body: unknown): Promise<McpServerView> {
  const input = parseInput(McpServerInput, body)
  if (input.scope === 'org' && !isOrgAdmin(caller))
    throw forbidden("Only the organisation's admins and owners may register MCP servers for it")
  // One name per person's view: a name is the prefix of the server's tools.
  const existing = await selectVisibleServers(caller.orgId, caller.userId)
  if (existing.some((s) => s.name === input.name)) throw taken(input.name)
  await checkHeaderSecrets(caller, input.scope, input.headers)
  await checkUrl(input.name, input.url, input.scope)
  try {
    const row = await getDb().transaction(async (tx) => {
      await checkMcpServerQuota(caller, input.scope, tx)
      return insertServer(
        {
          id: newId('mcp'),
          orgId: caller.orgId,
          scope: input.scope,
          createdBy: caller.userId,
          updatedBy: caller.userId,
          name: input.name,
          url: input.url,
          headers: input.headers,
        },
        tx,
      )
    })
    logger.info(
      { orgId: caller.orgId, userId: caller.userId, server: row.id, scope: row.scope },
      'MCP server registered',
    )
    return view(caller, row)
  } catch (err) {
    if (isUniqueViolation(err)) throw taken(input.name)
    throw err
  }
}

export async function updateMcpServer(caller: Who, id: string, body: unknown): Promise<McpServerView> {
  const patch = parseInput(McpServerPatch, body)
  const row = await findEditable(caller, id)
  if (patch.name && patch.name !== row.name) {
    const existing = await selectVisibleServers(caller.orgId, caller.userId)
    if (existing.some((s) => s.name === patch.name)) throw taken(patch.name)
  }
  if (patch.headers) await checkHeaderSecrets(caller, row.scope, patch.headers)
  if (patch.url) await checkUrl(patch.name ?? row.name, patch.url, row.scope)
  try {
    const updated = await updateServer(row.id, { ...patch, updatedBy: caller.userId })
    if (!updated) throw notFound(`No MCP server ${id}`)
    return view(caller, updated)
  } catch (err) {
    if (isUniqueViolation(err) && patch.name) throw taken(patch.name)
    throw err
  }
}

export async function removeMcpServer(caller: Who, id: string): Promise<void> {
  const row = await findEditable(caller, id)
  await deleteServer(row.id)
  logger.info({ orgId: caller.orgId, userId: caller.userId, server: row.id }, 'MCP server removed')
}

/** Connects, lists the tools afresh and reports the outcome (also what the settings page shows next). */
export async function testMcpServer(
  caller: Who,
  id: string,
): Promise<{ server: McpServerView; status: McpStatus }> {
  const row = await selectVisibleServer(caller.orgId, caller.userId, id)
  if (!row) throw notFound(`No MCP server ${id}`)
  try {
    await listMcpTools(await endpointOf(row), { fresh: true })
  } catch (err) {
    if (!(err instanceof McpFailure)) throw err
    noteMcpFailure(keyOf(row), err)
  }
  const server = view(caller, row)
  return { server, status: server.status }
}

const headerSecret = (value: McpHeaderValue) =>
  typeof value === 'string' ? null : 'secret' in value ? value.secret : value.bearer

/**
 * The server with its header secrets filled in. A personal server reads only its owner's secrets;
 * an org server only the org's (a member's own secrets never travel to a shared server), and only
 * while whoever saved it last is an admin or owner.
 */
export async function endpointOf(row: McpServerRow): Promise<McpEndpoint> {
  const names = [
    ...new Set(
      Object.values(row.headers)
        .map(headerSecret)
        .filter((n): n is string => !!n),
    ),
  ]
  const { values, missing } = names.length
    ? await resolveSecretValues([await secretSourceOf(row)], names)
    : { values: {}, missing: [] }
  if (missing.length)
    throw new McpFailure(
      'config',
      `MCP server ${row.name} needs the secret${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, which ${
        missing.length > 1 ? 'are' : 'is'
      } not stored among ${row.scope === 'org' ? "the organisation's" : 'its owner’s own'} secrets (Settings → Secrets)`,
    )
  const headers = Object.fromEntries(
    Object.entries(row.headers).map(([name, value]) => [
      name,
      typeof value === 'string'
        ? value
        : 'secret' in value
          ? values[value.secret]!
          : `Bearer ${values[value.bearer]}`,
    ]),
  )
  return { key: keyOf(row), name: row.name, url: row.url, headers, adminRegistered: row.scope === 'org' }
}

/** Whose secrets the server's headers carry, as an McpFailure (`config`) when none may be sent. */
async function secretSourceOf(row: McpServerRow) {
  try {
    return await secretOwnerFor(
      row.scope === 'personal'
        ? { scope: 'personal', userId: row.createdBy }
        : {
            scope: 'shared',
            orgId: row.orgId,
            writer: row.updatedBy ?? row.createdBy,
            what: `MCP server ${row.name}`,
          },
    )
  } catch (err) {
    if (err instanceof HttpError) throw new McpFailure('config', err.message.replace(/^secrets: /, ''))
    throw err
  }
}

/**
 * The servers a conversation uses: the org's and the person's own (org wins a shared name),
 * limited to `only` when a job names some (null: all of them). Unknown names are reported.
 */
export async function serversForAgent(
  caller: Pick<Caller, 'userId' | 'orgId'>,
  only: readonly string[] | null = null,
): Promise<{ servers: McpServerRow[]; unknown: string[] }> {
  const rows = await selectVisibleServers(caller.orgId, caller.userId)
  const byName = new Map<string, McpServerRow>()
  for (const row of rows) if (!byName.has(row.name)) byName.set(row.name, row)
  if (!only) return { servers: [...byName.values()], unknown: [] }
  return {
    servers: only.flatMap((name) => byName.get(name) ?? []),
    unknown: only.filter((name) => !byName.has(name)),
  }
}
