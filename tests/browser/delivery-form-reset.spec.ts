import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

// Sign-up hashes a password on a busy machine.
test.describe.configure({ timeout: 90_000 })

test('Settings → Delivery: an added endpoint empties the form, and its secret can be copied', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! })
  await signUp(page, 'Fern Form', uniqueEmail('fern'))
  await page.goto('/settings/delivery')
  const name = page.getByLabel('Name')
  const url = page.getByLabel('URL')
  await name.fill('ops-feed')
  await url.fill('https://hooks.example.invalid/in')
  await url.press('Enter')
  await expect(page.getByText('webhook:ops-feed', { exact: true })).toBeVisible()
  // Ready for the next endpoint: a second Enter does not ask for the same name again.
  await expect(name).toHaveValue('')
  await expect(url).toHaveValue('')

  const secret = page.getByTestId('signing-secret')
  await secret.getByRole('button', { name: 'Copy secret' }).click()
  const shown = (await secret.locator('pre').textContent())!.trim()
  expect(shown).toMatch(/^whsec_/)
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(shown)
})
