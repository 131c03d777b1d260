/** What the Machines page and `GET /_agent-native/machines` show: the caller's machines and tokens. */
import { connections } from './connection.ts'
import { listMachineRows, recentRuns } from './store.ts'
import { listMachineTokens, type TokenSummary } from './tokens.ts'

const STALE_MS = 90_000
const RUNS_PER_MACHINE = 5

export type MachineSummary = {
  id: string
  label: string
  os: string
  version: string
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
  const machines = rows.map((row) => {
    const online =
      !!connections.get(ownerId, row.id) ||
      (row.connected && Date.now() - row.lastSeenAt.getTime() < STALE_MS)
    return {
      id: row.id,
      label: row.label,
      os: row.os,
      version: row.version,
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
