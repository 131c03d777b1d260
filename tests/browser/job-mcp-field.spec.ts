import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

test.describe.configure({ timeout: 120_000 })

test('the job form edits the MCP servers a job may use, under Advanced', async ({ page }) => {
  await signUp(page, 'Milo Mayer', uniqueEmail('milo'))
  await page.goto('/jobs/new')
  await page.getByLabel('Name').fill('triage')
  await page.getByLabel('Prompt').fill('Triage the new issues.')
  await page.locator('summary', { hasText: 'Advanced' }).click()
  const servers = page.getByLabel('MCP servers')

  // A bad name is refused next to the field and nothing is created.
  await servers.fill('GitHub')
  await page.getByRole('button', { name: 'Create job' }).click()
  await expect(servers).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('must be 1–30 lowercase letters')).toBeVisible()
  await expect(page).toHaveURL(/\/jobs\/new$/)

  await servers.fill('github, linear')
  await page.getByRole('button', { name: 'Create job' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'triage' })).toBeVisible()
  await page.reload()
  await page.getByRole('tab', { name: 'Definition' }).click()
  await page.locator('summary', { hasText: 'Advanced' }).click()
  await expect(page.getByLabel('MCP servers')).toHaveValue('github, linear')
})
