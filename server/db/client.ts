/**
 * The database handle: postgres.js against a real server when DATABASE_URL is set,
 * otherwise PGlite (Postgres in WASM) in a local folder so the app runs with no setup.
 * One handle per process, opened by the server entry (or a test) and reached with getDb().
 */
import { mkdirSync } from 'node:fs'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import postgres from 'postgres'
import { singleton } from '../lib/singleton.ts'
import { preparingClient } from './prepared-statements.ts'
import * as schema from './schema/index.ts'

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>
export type DbKind = 'postgres' | 'pglite'

export interface DbHandle {
  db: Db
  kind: DbKind
  /** The connection string, for postgres handles. */
  url?: string
  /** Whether a postgres handle prepares its statements (OpenOptions.prepare). */
  prepare?: boolean
  /**
   * Subscribes to a NOTIFY channel; resolves to an unsubscribe function, which also resolves once
   * the handle is closed (a closed database listens to nothing: there is nothing left to undo).
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>
  /**
   * Postgres: runs `work` in a transaction on one connection beside the pool (made when first
   * asked), for a lock held while other work goes on in the pool: taken from a pool of one, the
   * lock's transaction would hold the connection that work waits for (lock.ts `whileLocked`).
   */
  aside?<T>(work: (tx: Db) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export type OpenOptions = {
  url?: string
  pgliteDir?: string
  poolSize?: number
  /** Prepare statements on their connection (default); false behind a transaction-mode pooler. */
  prepare?: boolean
}

/** Opens a new handle. Most code wants getDb(); this is for the server entry and tests. */
export async function openDatabase(options: OpenOptions): Promise<DbHandle> {
  return options.url
    ? openPostgres(options.url, options.poolSize ?? 10, options.prepare ?? true)
    : openPglite(options.pgliteDir)
}

function openPostgres(url: string, max: number, prepare: boolean): DbHandle {
  const client = postgres(url, {
    max,
    prepare,
    onnotice: () => {},
    // Fail fast when the server is gone instead of waiting on a dead socket.
    connect_timeout: 10,
  })
  const db = drizzlePostgres(prepare ? preparingClient(client) : client, { schema }) as unknown as Db
  let beside: { client: ReturnType<typeof postgres>; db: Db } | undefined
  const besideDb = () => {
    if (!beside) {
      const one = postgres(url, { max: 1, prepare, onnotice: () => {}, connect_timeout: 10 })
      beside = { client: one, db: drizzlePostgres(one, { schema }) as unknown as Db }
    }
    return beside.db
  }
  let closed = false
  return {
    db,
    kind: 'postgres',
    url,
    prepare,
    async listen(channel, onNotify) {
      const sub = await client.listen(channel, onNotify)
      return unlistenUnlessClosed(sub.unlisten, () => closed)
    },
    aside: (work) => besideDb().transaction(work),
    close: async () => {
      closed = true
      await Promise.all([client.end({ timeout: 5 }), beside?.client.end({ timeout: 5 })])
    },
  }
}

/** PGlite is imported here, when asked for, so a server on Postgres never loads it. */
async function openPglite(dir?: string): Promise<DbHandle> {
  const [{ PGlite }, { drizzle: drizzlePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
  ])
  if (dir) mkdirSync(dir, { recursive: true })
  const client = await PGlite.create(dir ? { dataDir: dir } : {})
  const db = drizzlePglite(client, { schema }) as unknown as Db
  return {
    db,
    kind: 'pglite',
    async listen(channel, onNotify) {
      const unsubscribe = await client.listen(channel, onNotify)
      return unlistenUnlessClosed(unsubscribe, () => client.closed)
    },
    close: () => client.close(),
  }
}

/**
 * An unlisten that fails only while its database is open. Once closed, postgres.js answers
 * CONNECTION_ENDED or not, depending on whether its listening connection's socket closed before
 * the unlisten came (a race inside its end()), and PGlite "PGlite is closed"; a server's shutdown
 * may close the database before its listeners stop.
 */
function unlistenUnlessClosed(unlisten: () => Promise<unknown>, isClosed: () => boolean) {
  return async () => {
    try {
      await unlisten()
    } catch (err) {
      if (!isClosed()) throw err
    }
  }
}

const current = singleton('db', () => ({ handle: undefined as DbHandle | undefined }))

/** Makes a handle the process-wide one (server start-up, test set-up). */
export function setCurrentDatabase(handle: DbHandle | undefined): void {
  current.handle = handle
}

export function getDbHandle(): DbHandle {
  if (!current.handle) throw new Error('Database not opened: the server entry opens it at start-up')
  return current.handle
}

export function getDb(): Db {
  return getDbHandle().db
}
