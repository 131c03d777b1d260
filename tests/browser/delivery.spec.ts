import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'
import { sidewaysScroll } from './look.ts'

// Sign-up and a save on a busy machine take more than the default 60 s together.
test.describe.configure({ timeout: 120_000 })
test.use({ viewport: { width: 390, height: 844 } })

test('Settings → Delivery fits 390 px with a long endpoint name, host and signing secret', async ({
  page,
}) => {
  await signUp(page, 'Dee Delivery', uniqueEmail('dee'))
  await page.goto('/settings/delivery')
  await expect(page.getByText('No endpoints yet')).toBeVisible()

  // The longest name the schema takes, and a host with no place to break but its dots.
  const name = `ops-${'feed'.repeat(14)}-eu`
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('URL').fill('https://hooks.eu-west-1.notifications.enterprise-example.invalid/in')
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  await expect(page.getByTestId('signing-secret')).toContainText('whsec_')
  await expect(page.getByRole('button', { name: `Remove webhook:${name}` })).toBeVisible()

  expect(await sidewaysScroll(page)).toEqual({ page: 0, boxes: [] })
  // The Remove button stays on the screen, not pushed off its right edge.
  const remove = await page.getByRole('button', { name: `Remove webhook:${name}` }).boundingBox()
  expect(remove!.x + remove!.width).toBeLessThanOrEqual(390)
})

test('Settings → Delivery: Remove says "Removing…" and takes no second click while it is out', async ({
  page,
}) => {
  await signUp(page, 'Rex Remove', uniqueEmail('rex'))
  await page.goto('/settings/delivery')
  await page.getByLabel('Name').fill('ops-feed')
  await page.getByLabel('URL').fill('https://hooks.example.invalid/in')
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  const remove = page.getByRole('button', { name: 'Remove webhook:ops-feed' })
  await expect(remove).toHaveText('Remove')

  // Hold the removal at the network until the pending state has been seen.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/settings/delivery*', async (route) => {
    if (route.request().postData()?.includes('delete-endpoint')) await held
    await route.continue()
  })
  await remove.click()
  await expect(remove).toHaveText('Removing…')
  await expect(remove).toBeDisabled()
  release()
  await expect(remove).toHaveCount(0)
  await expect(page.getByText('No endpoints yet')).toBeVisible()
})
