/**
 * A new user's first run of the production server: it reads `.env` as the dev server does
 * (first-run.spec.ts). Its own server from the real entry (build/server/index.js); a file of its own
 * so that it runs beside the dev-server tests.
 */
import { test } from '@playwright/test'
import { expectEnvFileRead, FIRST_RUN_TIMEOUT, serverWithEnvFile } from './first-run.ts'

test.setTimeout(FIRST_RUN_TIMEOUT)

test('the production server reads LOG_LEVEL and AGENT_MODEL from the env file', async ({ page }) => {
  const { server, file } = await serverWithEnvFile('production')
  try {
    await expectEnvFileRead(page, server, file)
  } finally {
    await server.stop()
  }
})
