/**
 * The real server, in this test process, on a real port, over a fresh database.
 * Each vitest file runs in its own process, so env and singletons are per file.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ServerBuild } from 'react-router'
import { env, resetEnvCache } from '#server/env.ts'
import { startServer, type RunningServer } from '#server/http/server.ts'
import { ApiClient } from './api-client.ts'
import { inject } from 'vitest'
import { createMigratedDatabase, freePort } from './postgres-server.ts'
import { routesBuild } from './routes-build.ts'

export type TestApp = {
  baseUrl: string
  server: RunningServer
  client(): ApiClient
  close(): Promise<void>
}

/** The secret test apps sign sessions with: another instance given it takes their sessions. */
export const TEST_AUTH_SECRET = 'test-secret-test-secret-test-secret-0123'

export async function startTestApp(
  options: { pglite?: boolean; env?: Record<string, string> } = {},
): Promise<TestApp> {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const database = options.pglite
    ? null
    : await createMigratedDatabase(inject('postgresUrl'), inject('templateDatabase'))
  const pgliteDir = options.pglite ? mkdtempSync(path.join(os.tmpdir(), 'clockwork-pglite-')) : null
  Object.assign(process.env, {
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: baseUrl,
    DATABASE_URL: database?.url ?? '',
    PGLITE_DIR: pgliteDir ?? '',
    BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
    AUTH_RATE_LIMIT: 'false',
    SCHEDULER_ENABLED: 'false',
    ...options.env,
  })
  if (!database) delete process.env.DATABASE_URL
  resetEnvCache()
  // The routes as the production server serves them, from a build made once for all test apps.
  const build = (await import(/* @vite-ignore */ pathToFileURL(await routesBuild()).href)) as ServerBuild
  const server = await startServer(env(), { kind: 'built', build })
  // The first request is made here, in the hook's time, so a test never pays for a cold start.
  const warm = await fetch(`${baseUrl}/_agent-native/health`)
  await warm.arrayBuffer()
  if (!warm.ok) throw new Error(`the test app did not answer its health check: ${warm.status}`)
  return {
    baseUrl,
    server,
    client: () => new ApiClient(baseUrl),
    close: async () => {
      await server.close()
      await database?.drop()
      if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true })
    },
  }
}
