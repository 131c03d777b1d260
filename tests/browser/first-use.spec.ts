/** Small things a new user meets first: an unknown address, the sign-up button while the app loads. */
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

test('an unknown page is titled "Page not found" and answers 404', async ({ page }) => {
  const res = await page.goto('/no-such-page')
  expect(res?.status()).toBe(404)
  await expect(page).toHaveTitle('Page not found · Clockwork')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found')
  await expect(page.getByText(/Internal Server Error/)).toHaveCount(0)
})

test('after sign-up the button shows progress until the next page has loaded', async ({ page }) => {
  await page.goto('/sign-up')
  await page.getByLabel('Name').fill('Paula Patient')
  await page.getByLabel('Email').fill(uniqueEmail('paula'))
  await page.getByLabel('Password').fill('password1234')
  // Hold the next page's data until the test has looked at the button.
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/jobs\.data/, async (route) => {
    await held
    await route.continue()
  })
  const button = page.getByRole('button', { name: /Create account|Creating your account/ })
  const signedUp = page.waitForResponse(/\/auth\/sign-up\/email/)
  const navigating = page.waitForRequest(/\/jobs\.data/)
  await button.click()
  await expect(button).toHaveText('Creating your account…')
  await expect(button).toBeDisabled()
  // After the account exists and the page has acted on it (it is loading /jobs, held above), it
  // still says so.
  expect((await signedUp).status()).toBe(200)
  await navigating
  await expect(button).toHaveText('Creating your account…')
  await expect(button).toBeDisabled()
  release()
  await expect(page).toHaveURL(/\/jobs$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible()
})

test('an invalid schedule is explained once, before and after submitting', async ({ page }) => {
  await signUp(page, 'Cora Cron', uniqueEmail('cora'))
  await page.goto('/jobs/new')
  await page.getByLabel('Name').fill('bad-cron')
  await page.getByLabel('Prompt').fill('Anything.')
  const schedule = page.getByLabel('Schedule', { exact: true })
  await schedule.fill('61 * * * *')
  const main = page.locator('main')
  await expect(main.getByTestId('schedule-preview-error')).toContainText('61')
  await expect(main.getByText(/\b61\b/)).toHaveCount(1)
  const answered = page.waitForResponse(
    (res) => res.request().method() === 'POST' && /\/jobs\/new/.test(res.url()),
  )
  await page.getByRole('button', { name: 'Create job' }).click()
  // The server's verdict came back (the page stayed on the form) and still one message says it.
  await answered
  await expect(page.getByRole('button', { name: 'Create job' })).toBeEnabled()
  await expect(page).toHaveURL(/\/jobs\/new$/)
  await expect(schedule).toHaveAttribute('aria-invalid', 'true')
  await expect(main.getByText(/\b61\b/)).toHaveCount(1)
})
