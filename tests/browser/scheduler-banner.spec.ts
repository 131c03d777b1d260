import { test as base, expect } from '@playwright/test'
import { spawnServer, type SpawnedServer } from '../support/spawn-server.ts'
import { signUp, uniqueEmail } from './helpers.ts'

// A server of its own with the scheduler off (the shared one runs it).
const test = base.extend<object, { server: SpawnedServer }>({
  server: [
    async ({}, use) => {
      const server = await spawnServer({ SCHEDULER_ENABLED: 'false' })
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
})

test('with no scheduler running, every page warns that scheduled jobs will not fire', async ({ page }) => {
  await signUp(page, 'Nora Nofire', uniqueEmail('nora'))
  const banner = page.getByRole('alert').filter({ hasText: 'Scheduled jobs will not fire' })
  await expect(banner).toContainText('Scheduled jobs will not fire: no scheduler has been seen yet.')
  await expect(banner).toContainText('SCHEDULER_ENABLED=true')
  await page.getByRole('link', { name: 'Settings' }).click()
  await expect(banner).toBeVisible()
})
