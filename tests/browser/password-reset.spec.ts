import { expect, test } from '@playwright/test'

// The browser tests' server has no SMTP_URL: the mailed round trip is tests/integration/password-reset.test.ts.
test('sign-in links to forgot-password, which says email is off without SMTP', async ({ page }) => {
  await page.goto('/sign-in')
  await page.getByRole('link', { name: 'Forgot password?' }).click()
  await expect(page).toHaveURL(/\/forgot-password$/)
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible()
  await expect(page.getByText('Email is off on this server')).toBeVisible()
  await page.getByRole('link', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/sign-in$/)
})

test('the reset page shows errors next to its fields and refuses a bad link', async ({ page }) => {
  await page.goto('/reset-password?token=not-a-real-token')
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
  const save = page.getByRole('button', { name: 'Save new password' })
  await expect(save).toBeEnabled()

  await page.getByLabel('New password').fill('short')
  await page.getByLabel('Repeat it').fill('short')
  await save.click()
  await expect(page.getByLabel('New password')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('Use at least 8 characters.')).toBeVisible()

  await page.getByLabel('New password').fill('long-enough-1')
  await page.getByLabel('Repeat it').fill('long-enough-2')
  await save.click()
  await expect(page.getByLabel('Repeat it')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('The two passwords differ.')).toBeVisible()

  await page.getByLabel('Repeat it').fill('long-enough-1')
  await save.click()
  await expect(
    page.getByRole('alert').filter({ hasText: 'This link has expired or was used already.' }),
  ).toBeVisible()
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
    'href',
    '/forgot-password',
  )

  await page.goto('/reset-password?error=INVALID_TOKEN')
  await expect(page.getByRole('heading', { name: 'This link does not work' })).toBeVisible()
})
