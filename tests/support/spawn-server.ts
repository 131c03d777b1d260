/**
 * The production server (`npm start`'s entry) in a child process over a fresh database, with
 * extra environment: the browser tests' shared server (global-setup.ts) and the ones that need a
 * server configured unlike it (scheduler off, a fake model provider). Needs `npm run build` first.
 */
import { existsSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createEmptyDatabase, freePort, startPostgresServer } from './postgres-server.ts'
import { waitForHealth } from './server-process.ts'

export type SpawnedServer = {
  baseUrl: string
  databaseUrl: string
  pid: number
  /** Everything the server wrote to stdout and stderr so far (its logs), also passed through. */
  output(): string
  stop(): Promise<void>
}
type PostgresServer = { url: string; stop(): Promise<void> }

/** A PostgreSQL server the caller owns (vitest: `inject('postgresUrl')`, the run's one server). */
export const sharedPostgres = (url: string): PostgresServer => ({ url, stop: async () => {} })

/**
 * Which server entry to run: the production build `npm run build` writes (default: what `npm start`,
 * the Dockerfile and the systemd unit run), or the development entry (`npm run dev`: the TypeScript
 * source through tsx, routes through Vite).
 */
export type ServerEntry = 'source' | 'compiled'
const ENTRY_ARGS: Record<ServerEntry, string[]> = {
  source: ['--import', 'tsx', 'server/dev.ts'],
  compiled: ['build/server/index.js'],
}

/** The shared browser-test Postgres (from the global setup), else TEST_DATABASE_URL/DATABASE_URL or embedded. */
async function postgresServerUrl(): Promise<PostgresServer> {
  const shared = process.env.E2E_DATABASE_URL
  if (shared) {
    const url = new URL(shared)
    url.pathname = '/postgres'
    return { url: url.toString(), stop: async () => {} }
  }
  return startPostgresServer()
}

/**
 * Starts the server with `env` on top of the test defaults; `postgres` (stopped with it) hosts its
 * database. With `env.DATABASE_URL` it joins that database instead (another instance of the same
 * deployment) and leaves it in place on stop.
 */
export async function spawnServer(
  env: Record<string, string>,
  given?: PostgresServer,
  entry: ServerEntry = 'compiled',
): Promise<SpawnedServer> {
  if (entry === 'compiled' && !existsSync(ENTRY_ARGS.compiled[0]!)) {
    throw new Error('The compiled server is missing: run `npm run build` first (`npm test` does)')
  }
  const postgres = env.DATABASE_URL ? null : (given ?? (await postgresServerUrl()))
  const database = postgres
    ? await createEmptyDatabase(postgres.url)
    : { url: env.DATABASE_URL!, drop: async () => {} }
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ENTRY_ARGS[entry], {
    env: {
      ...process.env,
      NODE_ENV: entry === 'compiled' ? 'production' : 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: baseUrl,
      DATABASE_URL: database.url,
      BETTER_AUTH_SECRET: 'spawned-test-secret-spawned-test-secret',
      AUTH_RATE_LIMIT: 'false',
      LOG_LEVEL: 'warn',
      // A developer's .env must not change the server under test.
      ENV_FILE: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
    process.stdout.write(chunk)
  })
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
    process.stderr.write(chunk)
  })
  await waitForHealth(baseUrl, { child, output: () => output })
  return {
    baseUrl,
    databaseUrl: database.url,
    pid: child.pid!,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        await once(child, 'exit')
      }
      await database.drop()
      await postgres?.stop()
    },
  }
}
