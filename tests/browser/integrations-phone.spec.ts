import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'
import { expectWhole } from './look.ts'

// Sign-up and a save on a busy machine take more than the default 60 s together.
test.describe.configure({ timeout: 120_000 })
test.use({ viewport: { width: 390, height: 844 } })

test('Settings → Integrations shows a long MCP server URL whole at 390 px, not cut off', async ({ page }) => {
  await signUp(page, 'Mo Mcp', uniqueEmail('mo'))
  await page.goto('/settings/integrations')
  // A host that never resolves: added (the outbound rule refuses only what it can place), never reached.
  const url =
    'https://mcp.eu-west-1.internaltools.enterpriseexample.invalid/v1/servers/averylongpathsegment/mcp'
  await page.getByLabel('Name').fill('docs')
  await page.getByLabel('URL').fill(url)
  await page.getByRole('button', { name: 'Add server' }).click()
  const row = page.getByTestId('mcp-server')
  const shown = row.getByText(url, { exact: true })
  await expect(shown).toBeVisible()
  // All of it on the screen: wrapped, neither cut off with an ellipsis nor past the edge.
  await expectWhole(shown)
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBe(0)
})
