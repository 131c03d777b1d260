/**
 * The production server (`npm start`'s entry) in a child process over a fresh database, with
 * extra environment: the browser tests' shared server (global-setup.ts) and the ones that need a
 * server configured unlike it (scheduler off, a fake model provider). Needs `npm run build` first.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createEmptyDatabase, freePort, startPostgresServer } from './postgres-server.ts'

export type SpawnedServer = { baseUrl: string; databaseUrl: string; stop(): Promise<void> }
type PostgresServer = { url: string; stop(): Promise<void> }

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

/** Starts the server with `env` on top of the test defaults; `postgres` (stopped with it) hosts its database. */
export async function spawnServer(
  env: Record<string, string>,
  given?: PostgresServer,
): Promise<SpawnedServer> {
  const postgres = given ?? (await postgresServerUrl())
  const database = await createEmptyDatabase(postgres.url)
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
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
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  await waitForHealth(baseUrl, child)
  return {
    baseUrl,
    databaseUrl: database.url,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        await once(child, 'exit')
      }
      await database.drop()
      await postgres.stop()
    },
  }
}

async function waitForHealth(baseUrl: string, child: ChildProcess) {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} during start-up`)
    try {
      if ((await fetch(`${baseUrl}/_agent-native/health`)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error('server did not become healthy within 60 s')
}
