import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

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

  const sideways = await page.locator('main').evaluate((main) => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    boxes: [main, ...main.querySelectorAll('*')]
      .filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 3).join('.')}`),
  }))
  expect(sideways).toEqual({ page: 0, boxes: [] })
  // The Remove button stays on the screen, not pushed off its right edge.
  const remove = await page.getByRole('button', { name: `Remove webhook:${name}` }).boundingBox()
  expect(remove!.x + remove!.width).toBeLessThanOrEqual(390)
})
