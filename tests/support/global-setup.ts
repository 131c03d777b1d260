import type { TestProject } from 'vitest/node'
import { startPostgresServer } from './postgres-server.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string
  }
}

/** One Postgres server for the whole run; each test file makes its own database on it. */
export default async function setup(project: TestProject) {
  const server = await startPostgresServer()
  project.provide('postgresUrl', server.url)
  return () => server.stop()
}
