/**
 * Stops for a run's commands. Asked for once (recorded in machine_runs, idempotent per run),
 * delivered now when the machine is reachable, else when it registers again, and retried every
 * 30 s while it stays connected until the client acknowledges.
 */
import { logger } from '../lib/logger.ts'
import { connections, type MachineConnection } from './connection.ts'
import { markStopDelivered, stopsDue } from './store.ts'

export const CLEANUP_TIMEOUT_MS = 10_000
export const STOP_RETRY_MS = 30_000

/** Sends the stops due to a connection this process holds; failures stay due for the next try. */
export async function deliverStops(conn: MachineConnection): Promise<number> {
  let delivered = 0
  for (const runId of await stopsDue(conn.ownerId, conn.machineId)) {
    try {
      await conn.call('stop', { runId }, CLEANUP_TIMEOUT_MS)
      await markStopDelivered(conn.ownerId, conn.machineId, runId)
      delivered++
    } catch (err) {
      logger.warn({ err, machine: conn.machineId, runId }, 'machine stop not delivered; kept for retry')
    }
  }
  return delivered
}

/** Delivers to the local connection of (owner, machine), if this process holds it. */
export async function deliverStopsLocally(ownerId: string, machineId: string): Promise<number | undefined> {
  const conn = connections.get(ownerId, machineId)
  return conn ? deliverStops(conn) : undefined
}
