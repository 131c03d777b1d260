import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test as base } from '@playwright/test'
import { spawnServer, type SpawnedServer } from '../support/spawn-server.ts'

/**
 * A server of its own whose environments live in a fresh folder the sandbox user can enter (the
 * shared server's default, under the checkout, may not be).
 */
export const test = base.extend<object, { server: SpawnedServer }>({
  server: [
    async ({}, use) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-e2e-envs-'))
      chmodSync(dir, 0o711)
      const server = await spawnServer({ ENVIRONMENTS_DIR: path.join(dir, 'environments') })
      await use(server)
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
})
