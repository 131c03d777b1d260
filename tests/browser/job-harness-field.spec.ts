import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

test.describe.configure({ timeout: 120_000 })

// The Agent select offered Claude Code, whose runs work in an environment, on a form that had no
// field to name one: the job could not be made from the form at all.
test('the job form hands a job to a coding agent with the environment it works in', async ({ page }) => {
  await signUp(page, 'Hana Holt', uniqueEmail('hana'))
  await page.goto('/jobs/new')
  await page.getByLabel('Name').fill('refactor')
  await page.getByLabel('Prompt').fill('Tidy the scripts folder.')
  await page.locator('summary', { hasText: 'Advanced' }).click()
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Claude Code' })

  // Without an environment: refused under Agent, in words that name the form's field.
  await page.getByRole('button', { name: 'Create job' }).click()
  await expect(page.getByLabel('Agent', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText(/name one in Environment/)).toBeVisible()
  await expect(page).toHaveURL(/\/jobs\/new$/)

  await page.getByLabel('Environment').fill('scratch')
  await page.getByRole('button', { name: 'Create job' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'refactor' })).toBeVisible()
  await page.reload()
  await page.getByRole('tab', { name: 'Definition' }).click()
  await page.locator('summary', { hasText: 'Advanced' }).click()
  await expect(page.getByLabel('Environment')).toHaveValue('scratch')
  await expect(page.getByLabel('Agent', { exact: true })).toHaveValue('claude-code')
})
