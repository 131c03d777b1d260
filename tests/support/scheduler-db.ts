/**
 * A test database for scheduler tests, reachable through several handles (one per scheduler
 * instance, as separate app processes would have). Connections use `synchronous_commit=off`:
 * commits then skip the WAL flush (~10 ms each on this disk), which only matters if the Postgres
 * server itself crashes; locking, isolation and visibility, which these tests are about, are unchanged.
 */
import { openDatabase, setCurrentDatabase, type DbHandle } from '#server/db/client.ts'
import { createTestDatabase } from './database.ts'

export type SchedulerTestDatabase = {
  /** Connection string (with the fast-commit option) for child processes. */
  url: string
  /** The process-wide handle (services use it). */
  handle: DbHandle
  /** Opens another handle with its own pool. */
  open(poolSize?: number): Promise<DbHandle>
  drop(): Promise<void>
}

export function withFastCommits(url: string): string {
  const parsed = new URL(url)
  parsed.searchParams.set('synchronous_commit', 'off')
  return parsed.toString()
}

export async function createSchedulerDatabase(): Promise<SchedulerTestDatabase> {
  const base = await createTestDatabase()
  const url = withFastCommits(base.url)
  const handles: DbHandle[] = []
  const open = async (poolSize = 5) => {
    const handle = await openDatabase({ url, poolSize })
    handles.push(handle)
    return handle
  }
  const handle = await open()
  setCurrentDatabase(handle)
  return {
    url,
    handle,
    open,
    drop: async () => {
      for (const h of handles) await h.close()
      await base.drop()
    },
  }
}
