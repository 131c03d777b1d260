/**
 * A server entry in a child process whose output the test reads: for tests about start-up itself
 * (configuration, .env, the dev server). `development` runs `npm run dev`'s entry (server/dev.ts
 * through tsx, routes through Vite); `production` runs `npm start`'s (build/server/index.js on
 * plain node), which needs `npm run build` first.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createEmptyDatabase, freePort, startPostgresServer } from './postgres-server.ts'

/** Environment overrides; `undefined` removes a variable the test process has. */
export type EnvOverrides = Record<string, string | undefined>

export type EntryProcess = {
  child: ChildProcess
  /** stdout and stderr so far, interleaved. */
  output(): string
  /** Resolves with the exit code. */
  exited: Promise<number | null>
}

const ENTRY_ARGS = {
  development: ['--import', 'tsx', 'server/dev.ts'],
  production: ['build/server/index.js'],
} as const

/** Spawns an entry with the test's environment plus `env`; .env is not read unless ENV_FILE says. */
export function spawnEntry(env: EnvOverrides, mode: keyof typeof ENTRY_ARGS = 'development'): EntryProcess {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    ENV_FILE: 'off',
    FORCE_COLOR: '0',
    ...env,
  }
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key]
  const child = spawn(process.execPath, ENTRY_ARGS[mode], {
    env: merged,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let text = ''
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  return { child, output: () => text, exited }
}

export type ServerProcess = EntryProcess & { baseUrl: string; stop(): Promise<void> }

/** A server over a fresh database, healthy before this resolves. */
export async function startServerProcess(
  mode: 'development' | 'production',
  env: EnvOverrides = {},
): Promise<ServerProcess> {
  const shared = process.env.E2E_DATABASE_URL
  const postgres = shared
    ? { url: Object.assign(new URL(shared), { pathname: '/postgres' }).toString(), stop: async () => {} }
    : await startPostgresServer()
  const database = await createEmptyDatabase(postgres.url)
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const entry = spawnEntry(
    {
      NODE_ENV: mode,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: baseUrl,
      DATABASE_URL: database.url,
      BETTER_AUTH_SECRET: 'server-process-secret-server-process-secret',
      AUTH_RATE_LIMIT: 'false',
      ...env,
    },
    mode,
  )
  const stop = async () => {
    if (entry.child.exitCode === null) {
      entry.child.kill('SIGTERM')
      await entry.exited
    }
    await database.drop()
    await postgres.stop()
  }
  try {
    await waitForHealth(baseUrl, entry)
  } catch (err) {
    await stop()
    throw err
  }
  return { ...entry, baseUrl, stop }
}

/**
 * How long a server may take to answer its first /health: a development server loads every route
 * then, which takes most of a minute on a loaded two-core machine. A hang guard, not a deadline.
 */
export const SERVER_START_TIMEOUT_MS = 120_000

/** Waits for `/_agent-native/health` to answer 200; fails at once if the process exits first. */
export async function waitForHealth(baseUrl: string, entry: Pick<EntryProcess, 'child' | 'output'>) {
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (entry.child.exitCode !== null) {
      throw new Error(`server exited with ${entry.child.exitCode} during start-up:\n${entry.output()}`)
    }
    try {
      if ((await fetch(`${baseUrl}/_agent-native/health`)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`server did not become healthy within 120 s:\n${entry.output()}`)
}
