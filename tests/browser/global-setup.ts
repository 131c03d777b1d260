/**
 * Starts the production server (`npm start`'s entry) on a free port over a fresh
 * database, and stops it afterwards. Needs `npm run build` first (npm run test:browser does it).
 */
import { existsSync } from 'node:fs'
import { startFakeAnthropic } from '../support/fake-anthropic.ts'
import { startPostgresServer } from '../support/postgres-server.ts'
import { spawnServer } from '../support/spawn-server.ts'

/** The key the browser tests' server sends to the fake model server (never a real one). */
const FAKE_ANTHROPIC_KEY = 'sk-ant-e2e-fake-key'

export default async function globalSetup() {
  if (!existsSync('build/server/index.js')) throw new Error('No production build: run `npm run build` first')
  const postgres = await startPostgresServer()
  // The agent talks to a fake Anthropic API; specs script its replies over HTTP
  // (POST ${E2E_FAKE_ANTHROPIC_URL}/__control/replies). Unscripted calls get a plain "Done.".
  const fakeAnthropic = await startFakeAnthropic({ control: true, fallback: { text: 'Done.' } })
  const server = await spawnServer(
    {
      ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
      ANTHROPIC_BASE_URL: fakeAnthropic.baseURL,
      ...(process.env.E2E_ENV ? JSON.parse(process.env.E2E_ENV) : {}),
    },
    postgres,
  )
  process.env.E2E_BASE_URL = server.baseUrl
  process.env.E2E_DATABASE_URL = server.databaseUrl
  process.env.E2E_FAKE_ANTHROPIC_URL = fakeAnthropic.baseURL.replace(/\/v1$/, '')

  return async () => {
    await server.stop()
    await fakeAnthropic.close()
  }
}
