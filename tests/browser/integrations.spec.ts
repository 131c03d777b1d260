/**
 * Settings → Integrations against a real MCP server started here: an owner registers it for the
 * organisation (its host:port is in INTEGRATIONS_ALLOW_HOSTS of this spec's server), tests the
 * connection and sees its tools counted; the same URL as a personal server is refused by the
 * outbound rule when it is added; a bad name is shown next to the field.
 */
import { test as base, expect as baseExpect } from '@playwright/test'
import { startTestMcpServer, type TestMcpServer } from '../support/mcp-server.ts'
import { spawnServer, type SpawnedServer } from '../support/spawn-server.ts'
import { uniqueEmail } from './helpers.ts'

// Waits (not timings): this spec's own server answers slowly on a busy 2-core machine.
const expect = baseExpect.configure({ timeout: 30_000 })

const test = base.extend<object, { mcp: TestMcpServer; server: SpawnedServer }>({
  mcp: [
    async ({}, use) => {
      const mcp = await startTestMcpServer()
      await use(mcp)
      await mcp.close()
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ mcp }, use) => {
      const server = await spawnServer({ INTEGRATIONS_ALLOW_HOSTS: `127.0.0.1:${mcp.port}` })
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
})

test('an owner registers an MCP server for the org and tests the connection', async ({
  page,
  mcp,
  baseURL,
}) => {
  test.slow() // many round trips to a fresh server on a busy machine
  // Signed up through the API (the sign-up page has its own specs); the cookie is the page's.
  const signedUp = await page.request.post('/_agent-native/auth/sign-up/email', {
    data: { name: 'Ivy Integrator', email: uniqueEmail('ivy'), password: 'password1234' },
    headers: { origin: baseURL! },
  })
  expect(signedUp.status()).toBe(200)
  await page.goto('/settings')
  await page.getByRole('link', { name: 'Integrations' }).click()
  await expect(page).toHaveURL(/\/settings\/integrations/)
  await expect(page.getByText('No MCP servers yet')).toBeVisible()

  // A bad name is explained next to the field, and nothing is added.
  await page.getByLabel('Name').fill('Hand Book')
  await page.getByLabel('URL').fill(mcp.url)
  await page.getByRole('button', { name: 'Add server' }).click()
  await expect(page.getByRole('alert')).toContainText('lowercase letters')

  await page.getByLabel('Name').fill('handbook')
  await page.getByLabel('For').selectOption('org')
  await page.getByRole('button', { name: 'Add server' }).click()
  const row = page.locator('[data-testid="mcp-server"][data-name="handbook"]')
  await expect(row).toBeVisible()
  await expect(row.getByTestId('mcp-status')).toHaveText('Not checked yet')
  await row.getByRole('button', { name: 'Test connection' }).click()
  await expect(row.getByTestId('mcp-status')).toHaveText('Connected · 2 tools')

  // The status is remembered for the next visit.
  await page.reload()
  await expect(row.getByTestId('mcp-status')).toHaveText('Connected · 2 tools')

  // The same server as a personal registration: loopback is refused when it is added, next to the
  // URL (the allowlist widens admins' org servers only), and nothing is added.
  await page.getByLabel('Name').fill('mine')
  await page.getByLabel('URL').fill(mcp.url)
  await page.getByLabel('For').selectOption('personal')
  await page.getByRole('button', { name: 'Add server' }).click()
  await expect(page.getByRole('alert')).toContainText('refused by the outbound rule')
  await expect(page.getByLabel('URL')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.locator('[data-testid="mcp-server"][data-name="mine"]')).toHaveCount(0)
  const api = await (await page.request.get('/_agent-native/mcp-servers')).json()
  expect(api.servers.map((s: { name: string }) => s.name)).toEqual(['handbook'])
})
