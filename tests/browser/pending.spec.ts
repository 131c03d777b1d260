/**
 * A button that starts a request says so until the answer comes: its label turns into what it is
 * doing ("Saving…", "Removing…") and it is disabled and aria-busy, so a click visibly took and is
 * not repeated. Each request is held here until the button has been seen busy.
 */
import { expect, test, type Locator, type Page } from '@playwright/test'
import { holdPosts, signUp, uniqueEmail } from './helpers.ts'

// Sign-up and a dozen held requests on a busy machine.
test.describe.configure({ timeout: 120_000 })

/** Clicks `button` with the page's form posts held; the busy button reads `busyLabel` until they go. */
async function expectBusy(page: Page, button: Locator, busyLabel: string) {
  const release = await holdPosts(page, /\/settings\/[a-z-]+\.data/)
  await button.click()
  const busy = page.locator('button[aria-busy="true"]')
  await expect(busy).toHaveText(busyLabel)
  await expect(busy).toBeDisabled()
  release()
  await expect(busy).toHaveCount(0)
}

test('settings buttons say what they are doing while their request is under way', async ({ page }) => {
  await signUp(page, 'Penny Pending', uniqueEmail('penny'))

  await page.goto('/settings/agent')
  await expectBusy(page, page.getByRole('button', { name: 'Save command rules' }), 'Saving…')

  await page.goto('/settings/usage')
  await expectBusy(page, page.getByRole('button', { name: 'Save budget' }), 'Saving…')

  await page.goto('/settings/models')
  const personal = page.getByTestId('key-personal')
  await personal.getByLabel('Add your key').fill('sk-ant-pending-key-9x2w')
  await personal.getByRole('button', { name: 'Save key' }).click()
  await expect(personal.getByTestId('stored-personal')).toHaveText('••••9x2w')
  await expectBusy(page, personal.getByRole('button', { name: 'Remove your key' }), 'Removing…')
  await expect(personal.getByText('none stored')).toBeVisible()

  await page.goto('/settings/integrations')
  await page.getByLabel('Name').fill('docs')
  await page.getByLabel('URL').fill('https://mcp.pending.invalid/mcp')
  await expectBusy(page, page.getByRole('button', { name: 'Add server' }), 'Adding…')
  const server = page.getByTestId('mcp-server')
  await expectBusy(page, server.getByRole('button', { name: 'Remove' }), 'Removing…')
  await expect(server).toHaveCount(0)

  await page.goto('/settings/delivery')
  await page.getByLabel('Name').fill('ops-feed')
  await page.getByLabel('URL').fill('https://hooks.pending.invalid/in')
  await expectBusy(page, page.getByRole('button', { name: 'Add endpoint' }), 'Adding…')

  await page.goto('/settings/access-tokens')
  await page.getByLabel('Name').fill('Pending CLI')
  await expectBusy(page, page.getByRole('button', { name: 'Create token' }), 'Creating…')
  await expectBusy(page, page.getByRole('button', { name: 'Revoke Pending CLI' }), 'Revoking…')
})
