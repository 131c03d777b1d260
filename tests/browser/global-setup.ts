/**
 * Starts the production server (`npm start`'s entry) on a free port over a fresh
 * database, and stops it afterwards. Needs `npm run build` first (npm run test:browser does it).
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { startFakeAnthropic } from '../support/fake-anthropic.ts'
import { createEmptyDatabase, freePort, startPostgresServer } from '../support/postgres-server.ts'

/** The key the browser tests' server sends to the fake model server (never a real one). */
const FAKE_ANTHROPIC_KEY = 'sk-ant-e2e-fake-key'

export default async function globalSetup() {
  if (!existsSync('build/server/index.js')) throw new Error('No production build: run `npm run build` first')
  const postgres = await startPostgresServer()
  const database = await createEmptyDatabase(postgres.url)
  // The agent talks to a fake Anthropic API; specs script its replies over HTTP
  // (POST ${E2E_FAKE_ANTHROPIC_URL}/__control/replies). Unscripted calls get a plain "Done.".
  const fakeAnthropic = await startFakeAnthropic({ control: true, fallback: { text: 'Done.' } })
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
      BETTER_AUTH_SECRET: 'browser-test-secret-browser-test-secret',
      AUTH_RATE_LIMIT: 'false',
      LOG_LEVEL: 'warn',
      ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
      ANTHROPIC_BASE_URL: fakeAnthropic.baseURL,
      ...(process.env.E2E_ENV ? JSON.parse(process.env.E2E_ENV) : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  await waitForHealth(baseUrl, child)
  process.env.E2E_BASE_URL = baseUrl
  process.env.E2E_DATABASE_URL = database.url
  process.env.E2E_FAKE_ANTHROPIC_URL = fakeAnthropic.baseURL.replace(/\/v1$/, '')

  return async () => {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
    await fakeAnthropic.close()
    await database.drop()
    await postgres.stop()
  }
}

async function waitForHealth(baseUrl: string, child: ReturnType<typeof spawn>) {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} during start-up`)
    try {
      const res = await fetch(`${baseUrl}/_agent-native/health`)
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error('server did not become healthy within 60 s')
}
