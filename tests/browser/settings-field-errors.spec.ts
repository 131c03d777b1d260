/**
 * The settings forms show each refused field's error beside that field, in words (never the
 * schema's key, as in "apiKey: …"), and mark every bad field when there are several.
 */
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

test.describe.configure({ timeout: 120_000 })

test('Settings → Models says what is wrong with a key beside the key', async ({ page }) => {
  await signUp(page, 'Kim Keys', uniqueEmail('kim'))
  await page.goto('/settings/models')
  const key = page.getByTestId('key-personal')
  await key.getByLabel('Add your key').fill('short')
  await key.getByRole('button', { name: 'Save key' }).click()
  await expect(key.getByRole('alert')).toHaveText('looks too short for an API key')
  await expect(key.getByLabel('Add your key')).toHaveAttribute('aria-invalid', 'true')
})

test('Settings → Access tokens marks both a blank name and no scopes', async ({ page }) => {
  await signUp(page, 'Tom Tokens', uniqueEmail('tom'))
  await page.goto('/settings/access-tokens')
  // Spaces pass the browser's own check; the server refuses them.
  await page.getByLabel('Name').fill('   ')
  await page.getByLabel('Read jobs').uncheck()
  await page.getByRole('button', { name: 'Create token' }).click()
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByRole('alert').filter({ hasText: 'is required' })).toHaveText('is required')
  const scopes = page.getByRole('group', { name: 'Scopes' })
  await expect(scopes).toHaveAccessibleDescription('needs at least one scope')
  await expect(page.getByText(/name:|scopes:/)).toHaveCount(0)
})

test('Settings → Members says what is wrong with an invitation’s email beside it', async ({ page }) => {
  await signUp(page, 'Ivy Invites', uniqueEmail('ivy'))
  await page.goto('/settings/members')
  // The browser's email check lets "ann@localhost" through; the server wants a full address.
  await page.getByLabel('Email').fill('ann@localhost')
  await page.getByRole('button', { name: 'Create invite link' }).click()
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByRole('alert')).toHaveText('Enter a valid email address')
})

test('Settings → Agent marks every bad command limit beside its own field', async ({ page }) => {
  await signUp(page, 'Lea Limits', uniqueEmail('lea'))
  await page.goto('/settings/agent')
  const rules = page.getByTestId('exec-controls')
  await rules.getByLabel('Time per command (s)').fill('-1')
  await rules.getByLabel('CPU time (s)').fill('lots')
  await rules.getByRole('button', { name: 'Save command rules' }).click()
  await expect(rules.getByLabel('Time per command (s)')).toHaveAttribute('aria-invalid', 'true')
  await expect(rules.getByLabel('CPU time (s)')).toHaveAttribute('aria-invalid', 'true')
  // -1 is a number that is too small, not text.
  await expect(rules.getByLabel('Time per command (s)')).toHaveAccessibleDescription(/>=1/)
  await expect(rules.getByLabel('CPU time (s)')).toHaveAccessibleDescription(/expected number/)
  await expect(rules.getByLabel('Memory (MB)')).not.toHaveAttribute('aria-invalid', 'true')
  await expect(rules.getByText(/execLimits\./)).toHaveCount(0)
})
