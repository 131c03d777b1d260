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
