import { expect, test } from '@playwright/test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { signUp, uniqueEmail } from './helpers.ts'

test('a token made under Settings → Access tokens creates a job over MCP; the job page names the token; revoking refuses it', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  await signUp(page, 'Tia Token', uniqueEmail('tokens'))
  await page.goto('/settings/access-tokens')
  await expect(page.getByText('No access tokens yet')).toBeVisible()
  await page.getByLabel('Name').fill('My Claude Code')
  await page.getByRole('checkbox', { name: /Change jobs/ }).check()
  await page.getByRole('button', { name: 'Create token' }).click()
  const shown = page.getByTestId('new-access-token')
  await expect(shown).toContainText('claude mcp add --transport http clockwork')
  const token = /cwp_[\w-]+/.exec((await shown.locator('pre').textContent()) ?? '')![0]
  const row = page.locator('li', { hasText: 'My Claude Code' })
  await expect(row).toContainText('jobs:read')
  await expect(row).toContainText('jobs:write')
  await expect(row).not.toContainText('runs:write')

  const client = new Client({ name: 'browser-test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/_agent-native/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  )
  const created = await client.callTool({
    name: 'create_job',
    arguments: { name: 'from-my-agent', schedule: '0 9 * * 1', instructions: 'Plan the week.' },
  })
  expect(created.isError).toBeFalsy()

  await page.goto('/jobs')
  await page.getByRole('link', { name: 'from-my-agent' }).first().click()
  await page.getByRole('tab', { name: 'Audit trail' }).click()
  await expect(page.getByText(/via access token "My Claude Code" \(pat_/)).toBeVisible()

  await page.goto('/settings/access-tokens')
  await expect(row).toContainText(/last used (?!never)/)
  await page.getByRole('button', { name: 'Revoke My Claude Code' }).click()
  await expect(page.getByText('No access tokens yet')).toBeVisible()
  await expect(client.callTool({ name: 'list_jobs', arguments: {} })).rejects.toThrow(/unauthorized/)
  await client.close()
})
