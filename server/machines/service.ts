/**
 * What the Machines page and `GET /_agent-native/machines` show and do: the caller's machines and
 * tokens; revoking a token (which also ends what it connected) and disconnecting a machine.
 */
import type { Caller } from '../auth/caller.ts'
import { createResetLink, type ResetLink } from '../auth/reset-links.ts'
import { servedClientBuild } from './build-client.ts'
import { connections } from './connection.ts'
import { machineNotFound } from './errors.ts'
import { closeConnection } from './forward.ts'
import { deleteMachine, findMachine, isLive, listMachineRows, machinesOfToken, recentRuns } from './store.ts'
import { buildOfVersion } from './protocol.ts'
import { listMachineTokens, revokeMachineToken, type TokenSummary } from './tokens.ts'

const RUNS_PER_MACHINE = 5

export type MachineSummary = {
  id: string
  label: string
  os: string
  version: string
  /**
   * Whether it last connected with the client this server hands out now: false for an older
   * download (or a client from before builds were sent), null when the server has no built client
   * to compare with.
   */
  clientCurrent: boolean | null
  dir: string
  online: boolean
  lastSeenAt: string
  connectedAt: string | null
  /** The latest runs that used it (run or chat thread ids), newest first. */
  runs: { runId: string; lastUsedAt: string; stopped: boolean }[]
}

export async function listMachines(
  ownerId: string,
): Promise<{ machines: MachineSummary[]; tokens: TokenSummary[] }> {
  const rows = await listMachineRows(ownerId)
  const runs = await recentRuns(
    ownerId,
    rows.map((r) => r.id),
  )
  const current = servedClientBuild()
  const machines = rows.map((row) => {
    const online = !!connections.get(ownerId, row.id) || isLive(row)
    return {
      id: row.id,
      label: row.label,
      os: row.os,
      version: row.version,
      clientCurrent: current === null ? null : buildOfVersion(row.version) === current,
      dir: row.dir,
      online,
      lastSeenAt: (online ? new Date() : row.lastSeenAt).toISOString(),
      connectedAt: row.connectedAt?.toISOString() ?? null,
      runs: runs
        .filter((r) => r.machineId === row.id)
        .slice(0, RUNS_PER_MACHINE)
        .map((r) => ({
          runId: r.runId,
          lastUsedAt: r.lastUsedAt.toISOString(),
          stopped: !!r.stopRequestedAt,
        })),
    }
  })
  return { machines, tokens: await listMachineTokens(ownerId) }
}

/**
 * Revokes one of the owner's tokens and ends, at once and on whichever instance holds them, the
 * connections it made: a revoked token serves nothing more (decision 0223).
 */
export async function revokeToken(ownerId: string, tokenId: string): Promise<void> {
  await revokeMachineToken(ownerId, tokenId)
  for (const row of await machinesOfToken(ownerId, tokenId)) {
    await closeConnection(ownerId, row.id, row, 'revoked')
  }
  // One this instance holds whose record a newer connection has taken over since.
  for (const conn of connections.all()) {
    if (conn.ownerId === ownerId && conn.tokenId === tokenId) conn.end('revoked')
  }
}

/**
 * Ends, at once and on whichever instance holds them, the person's connections whose tokens are
 * revoked: an admin's reset link revokes them in its own transaction (decision 0351), and the
 * holder's own check would take up to STOP_RETRY_MS to notice. Returns how many were ended.
 */
export async function endRevokedConnections(ownerId: string): Promise<number> {
  const live = new Set((await listMachineTokens(ownerId)).map((t) => t.id))
  const revoked = (tokenId: string | null) => tokenId !== null && !live.has(tokenId)
  let ended = 0
  for (const row of await listMachineRows(ownerId)) {
    if (revoked(row.tokenId) && (await closeConnection(ownerId, row.id, row, 'revoked'))) ended++
  }
  for (const conn of connections.all()) {
    if (conn.ownerId === ownerId && revoked(conn.tokenId)) conn.end('revoked')
  }
  return ended
}

/**
 * An admin's password reset link for a member (auth/reset-links.ts), whose machines go offline
 * before it is handed out: the link revokes their machine tokens in its transaction, and this ends
 * the connections those tokens made (decision 0351). Both the API and the Members page call it.
 */
export async function createResetLinkEndingMachines(caller: Caller, userId: string): Promise<ResetLink> {
  const made = await createResetLink(caller, userId)
  await endRevokedConnections(made.userId)
  return made
}

/**
 * Ends the machine's connection (the client exits) and takes it off the owner's list, making room
 * under the cap. Its token stays valid: a client started again with it connects again; revoke the
 * token to keep it out. @throws HttpError 404 for a machine the owner does not have.
 */
export async function disconnectMachine(ownerId: string, machineId: string): Promise<void> {
  const row = await findMachine(ownerId, machineId)
  const closed = await closeConnection(ownerId, machineId, row, 'disconnected')
  const removed = await deleteMachine(ownerId, machineId)
  if (!closed && !removed) throw machineNotFound(machineId)
}
