import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test as base } from '@playwright/test'
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts'
import { spawnServer, type SpawnedServer } from '../support/spawn-server.ts'

/**
 * A server of its own whose environments live in a fresh folder the sandbox user can enter (the
 * shared server's default, under the checkout, may not be), and whose agent talks to a fake model
 * this worker scripts (`fake.replyWhen(tag, …)`; unscripted calls get "Done.").
 */
export const test = base.extend<object, { server: SpawnedServer; fake: FakeAnthropic }>({
  fake: [
    async ({}, use) => {
      const fake = await startFakeAnthropic({ fallback: { text: 'Done.' } })
      await use(fake)
      await fake.close()
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ fake }, use) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-e2e-envs-'))
      chmodSync(dir, 0o711)
      const server = await spawnServer({
        ENVIRONMENTS_DIR: path.join(dir, 'environments'),
        ANTHROPIC_API_KEY: 'sk-ant-e2e-environments',
        ANTHROPIC_BASE_URL: fake.baseURL,
      })
      await use(server)
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
})
