import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'
import { expectWhole } from './look.ts'

// Sign-up and a save on a busy machine take more than the default 60 s together.
test.describe.configure({ timeout: 120_000 })
test.use({ viewport: { width: 390, height: 844 } })

test('Settings → Secrets fits 390 px with the longest secret name there is', async ({ page }) => {
  await signUp(page, 'Sol Secrets', uniqueEmail('sol'))
  await page.goto('/settings/secrets')
  // 64 characters, the most a name may have, with no place to break.
  const name = `DEPLOYMENT_PIPELINE_${'TOKEN_'.repeat(7)}VALUE_ONE`.slice(0, 64)
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Value').fill('tok-value-1234')
  await page.getByRole('button', { name: 'Add secret' }).click()
  const row = page.getByTestId(`secret-${name}`)
  await expect(row).toBeVisible()
  await expectWhole(row.getByText(name, { exact: true }))
  // Its delete button stays within the screen's width, not pushed past the right edge.
  const remove = await row.getByRole('button', { name: `Delete personal secret ${name}` }).boundingBox()
  expect(remove!.x + remove!.width).toBeLessThanOrEqual(390)
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBe(0)
})
