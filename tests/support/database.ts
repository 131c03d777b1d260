/**
 * A fresh, migrated database per test file on the shared Postgres server (a copy of the run's
 * migrated template), made the process-wide handle. Dropped afterwards.
 */
import { inject } from 'vitest'
import { openDatabase, setCurrentDatabase, type DbHandle } from '#server/db/client.ts'
import { migrateDatabase } from '#server/db/migrate.ts'
import { createMigratedDatabase } from './postgres-server.ts'

export type TestDatabase = { url: string; handle: DbHandle; drop(): Promise<void> }

export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<TestDatabase> {
  const copy = await createMigratedDatabase(inject('postgresUrl'), inject('templateDatabase'))
  const handle = await openDatabase({ url: copy.url, poolSize: options.poolSize ?? 5 })
  // Nothing to apply in a copy of the template; kept so a database is never older than the code.
  await migrateDatabase(handle)
  setCurrentDatabase(handle)
  return {
    url: copy.url,
    handle,
    drop: async () => {
      setCurrentDatabase(undefined)
      await handle.close()
      await copy.drop()
    },
  }
}
