/**
 * "Jobs changed, look again": wakes sleeping schedulers early. On Postgres it is a
 * NOTIFY, so every instance on the database hears it; on PGlite (one process) an
 * in-process event does the same job.
 */
import { EventEmitter } from 'node:events'
import { sql } from 'drizzle-orm'
import { getDbHandle, type Db, type DbHandle } from './client.ts'
import { singleton } from '../lib/singleton.ts'
import { queryRows } from './sql.ts'

const JOBS_CHANGED_CHANNEL = 'clockwork_jobs_changed'

const local = singleton('jobs-changed-emitter', () => new EventEmitter().setMaxListeners(100))

/** Tells every scheduler that due times may have moved. Cheap; call after any job write commits. */
export async function notifyJobsChanged(db?: Db): Promise<void> {
  const handle = getDbHandle()
  local.emit('changed')
  if (handle.kind === 'postgres')
    await queryRows(db ?? handle.db, sql`select pg_notify(${JOBS_CHANGED_CHANNEL}, '')`)
}

/**
 * Calls `onChange` whenever jobs change (in this process, or on Postgres in any). `handle`
 * defaults to the process's database; tests running several schedulers pass their own.
 */
export async function onJobsChanged(
  onChange: () => void,
  handle: DbHandle = getDbHandle(),
): Promise<() => Promise<void>> {
  local.on('changed', onChange)
  const unlisten = handle.kind === 'postgres' ? await handle.listen(JOBS_CHANGED_CHANNEL, onChange) : null
  return async () => {
    local.off('changed', onChange)
    await unlisten?.()
  }
}

const PLACE_CHANGED_CHANNEL = 'clockwork_place_changed'

/**
 * Whose place in which organisation changed: they left or were removed (`membership`), or were
 * demoted to `role` (`role`).
 */
export type PlaceChange = { orgId: string; userId: string } & (
  { lost: 'membership' } | { lost: 'role'; role: string }
)

/**
 * Tells every instance that `userId` left `orgId` or lost their role there, so each ends what it
 * runs for them: the schedulers their runs, the agent their chat turns (decision 0476). On Postgres
 * a NOTIFY; on PGlite an in-process event.
 */
export async function notifyPlaceChanged(change: PlaceChange): Promise<void> {
  const handle = getDbHandle()
  const payload = JSON.stringify(change)
  if (handle.kind === 'postgres')
    await queryRows(handle.db, sql`select pg_notify(${PLACE_CHANGED_CHANNEL}, ${payload})`)
  else local.emit('place-changed', payload)
}

/** Calls `onChange` with every place change told on `handle` (the process's database by default). */
export async function onPlaceChanged(
  onChange: (change: PlaceChange) => void,
  handle: DbHandle = getDbHandle(),
): Promise<() => Promise<void>> {
  const heard = (payload: string) => {
    try {
      onChange(JSON.parse(payload) as PlaceChange)
    } catch {
      // not ours
    }
  }
  if (handle.kind === 'postgres') return handle.listen(PLACE_CHANGED_CHANNEL, heard)
  local.on('place-changed', heard)
  return async () => void local.off('place-changed', heard)
}
