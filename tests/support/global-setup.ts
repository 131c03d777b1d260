import type { TestProject } from 'vitest/node'
import { openDatabase } from '#server/db/client.ts'
import { migrateDatabase } from '#server/db/migrate.ts'
import { migratedTemplate, startPostgresServer } from './postgres-server.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string
    /** The migrated database each test database is copied from (postgres-server.ts). */
    templateDatabase: string
  }
}

/** One Postgres server for the whole run; each test file makes its own database on it. */
export default async function setup(project: TestProject) {
  const server = await startPostgresServer()
  const template = await migratedTemplate(server.url, async (url) => {
    const handle = await openDatabase({ url, poolSize: 1 })
    try {
      await migrateDatabase(handle)
    } finally {
      await handle.close()
    }
  })
  project.provide('postgresUrl', server.url)
  project.provide('templateDatabase', template)
  return () => server.stop()
}
