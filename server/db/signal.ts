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

/** Tells every instance `payload` on `channel`: a NOTIFY on Postgres, an in-process event on PGlite. */
async function tellEveryInstance(channel: string, payload: string): Promise<void> {
  const handle = getDbHandle()
  if (handle.kind === 'postgres') await queryRows(handle.db, sql`select pg_notify(${channel}, ${payload})`)
  else local.emit(channel, payload)
}

/** Calls `onMessage` with every JSON payload told on `channel`; one that does not parse is not ours. */
async function hearEveryInstance<T>(
  channel: string,
  onMessage: (message: T) => void,
  handle: DbHandle,
): Promise<() => Promise<void>> {
  const heard = (payload: string) => {
    let message: T
    try {
      message = JSON.parse(payload) as T
    } catch {
      return
    }
    onMessage(message)
  }
  if (handle.kind === 'postgres') return handle.listen(channel, heard)
  local.on(channel, heard)
  return async () => void local.off(channel, heard)
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
 * runs for them: the schedulers their runs, the agent their chat turns (decision 0476).
 */
export const notifyPlaceChanged = (change: PlaceChange): Promise<void> =>
  tellEveryInstance(PLACE_CHANGED_CHANNEL, JSON.stringify(change))

/** Calls `onChange` with every place change told on `handle` (the process's database by default). */
export const onPlaceChanged = (
  onChange: (change: PlaceChange) => void,
  handle: DbHandle = getDbHandle(),
): Promise<() => Promise<void>> => hearEveryInstance(PLACE_CHANGED_CHANNEL, onChange, handle)

const ORGANIZATION_DELETED_CHANNEL = 'clockwork_organization_deleted'

/** An organisation its owner deleted (decision 0521). */
export type OrganizationDeleted = { orgId: string }

/**
 * Tells every instance that an organisation was deleted, so each ends the chat turns it runs in it
 * and removes its environments' folders and snapshots from its disk.
 */
export const notifyOrganizationDeleted = (deleted: OrganizationDeleted): Promise<void> =>
  tellEveryInstance(ORGANIZATION_DELETED_CHANNEL, JSON.stringify(deleted))

/** Calls `onDeleted` with every organisation deletion told on `handle` (the process's database by default). */
export const onOrganizationDeleted = (
  onDeleted: (deleted: OrganizationDeleted) => void,
  handle: DbHandle = getDbHandle(),
): Promise<() => Promise<void>> => hearEveryInstance(ORGANIZATION_DELETED_CHANNEL, onDeleted, handle)

const CHAT_STOPPED_CHANNEL = 'clockwork_chat_stopped'

/**
 * A chat turn to end wherever it runs: its thread, the reason its person is told, and when the stop
 * was asked (ms since the epoch: a turn of the thread started later is not the one stopped).
 */
export type ChatStop = { threadId: string; reason: string; at: number }

/**
 * Tells every instance to end the turn of `stop.threadId` if it runs it (decision 0492): the
 * person's Stop, or their delete of the chat, reaches whichever instance the turn runs on.
 */
export const notifyChatStopped = (stop: ChatStop): Promise<void> =>
  tellEveryInstance(CHAT_STOPPED_CHANNEL, JSON.stringify(stop))

/** Calls `onStop` with every chat stop told on `handle` (the process's database by default). */
export const onChatStopped = (
  onStop: (stop: ChatStop) => void,
  handle: DbHandle = getDbHandle(),
): Promise<() => Promise<void>> => hearEveryInstance(CHAT_STOPPED_CHANNEL, onStop, handle)
