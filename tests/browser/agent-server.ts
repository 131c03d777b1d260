/**
 * A Playwright `test` whose pages talk to a server of their own (one per worker) whose agent calls
 * a fake Anthropic API: the shared browser-test server has no model key. `serverEnv` adds to the
 * server's environment (a spec that needs mail on extends it with an SMTP server of its own).
 */
import { test as base } from '@playwright/test'
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts'
import { spawnServer, type SpawnedServer } from '../support/spawn-server.ts'

export const test = base.extend<
  object,
  { fake: FakeAnthropic; server: SpawnedServer; serverEnv: Record<string, string> }
>({
  serverEnv: [{}, { option: true, scope: 'worker' }],
  fake: [
    async ({}, use) => {
      const fake = await startFakeAnthropic({ fallback: { text: 'Yesterday: **42** sign-ups.' } })
      await use(fake)
      await fake.close()
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ fake, serverEnv }, use) => {
      const server = await spawnServer({
        ANTHROPIC_API_KEY: 'sk-browser-test',
        ANTHROPIC_BASE_URL: fake.baseURL,
        ...serverEnv,
      })
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
})
