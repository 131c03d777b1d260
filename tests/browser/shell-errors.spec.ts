/**
 * A page that fails keeps the app around it: its card says what went wrong where the page was,
 * the navigation and the header stay, and Retry loads the page again (decision 0529). The skills
 * page has no error boundary of its own, so the app layout's catches it.
 */
import { expect, test } from '@playwright/test'
import { appReady } from './every-page.ts'
import { signUp, uniqueEmail } from './helpers.ts'

// A sign-up on a busy machine.
test.describe.configure({ timeout: 120_000 })

test('a page whose data fails shows the error inside the app, and Retry loads it', async ({ page }) => {
  await signUp(page, 'Fay Failing', uniqueEmail('fay'))
  await appReady(page)
  // The server answers the skills page's data with a failure it did not explain (a 500).
  const failing = /\/skills\.data/
  await page.route(failing, (route) => route.fulfill({ status: 500, body: 'Internal Server Error' }))
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Skills' }).click()

  const card = page.getByTestId('page-error')
  await expect(card.getByRole('heading', { level: 1 })).toHaveText('Something went wrong')
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Ask the agent' })).toBeVisible()
  await expect(card.getByRole('link', { name: 'Back to jobs' })).toBeVisible()

  await page.unroute(failing)
  const retry = card.getByRole('button', { name: 'Retry' })
  await expect(retry).toBeEnabled() // once the page has hydrated (decision 0537)
  await retry.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: 'Skills', level: 1 })).toBeVisible()
  await expect(page.getByTestId('page-error')).toHaveCount(0)
})
