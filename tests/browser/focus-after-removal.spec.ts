/**
 * A row removed from the keyboard (a revoked token, a removed endpoint, a secret deleted through its
 * confirmation dialog) hands the focus to its list's heading, not to the page: the next Tab goes on
 * from the list, not from "Skip to content" (decision 0420).
 */
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

// Sign-up hashes a password on a busy machine.
test.describe.configure({ timeout: 90_000 })

test('revoking a token and removing an endpoint with the keyboard leave the focus on their list', async ({
  page,
}) => {
  await signUp(page, 'Rhea Removal', uniqueEmail('rhea'))
  await page.goto('/settings/access-tokens')
  for (const name of ['First CLI', 'Second CLI']) {
    await page.getByLabel('Name').fill(name)
    await page.getByLabel('Name').press('Enter')
    await expect(page.getByRole('button', { name: `Revoke ${name}` })).toBeVisible()
  }
  await page.getByRole('button', { name: 'Revoke First CLI' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('button', { name: 'Revoke First CLI' })).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Your tokens' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: 'Revoke Second CLI' })).toBeFocused()

  await page.goto('/settings/delivery')
  await page.getByLabel('Name').fill('ops-feed')
  await page.getByLabel('URL').fill('https://hooks.example.invalid/in')
  await page.getByLabel('URL').press('Enter')
  await expect(page.getByTestId('signing-secret')).toContainText('whsec_')
  const remove = page.getByRole('button', { name: 'Remove webhook:ops-feed' })
  await remove.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByText('No endpoints yet')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Endpoints', exact: true })).toBeFocused()
  // The shown-once signing secret went with its endpoint: it signs nothing now.
  await expect(page.getByTestId('signing-secret')).toHaveCount(0)
})

test('deleting a secret through its dialog with the keyboard leaves the focus on the list', async ({
  page,
}) => {
  await signUp(page, 'Sid Secrets', uniqueEmail('sid'))
  await page.goto('/settings/secrets')
  for (const name of ['FIRST_TOKEN', 'SECOND_TOKEN']) {
    await page.getByLabel('Name').fill(name)
    await page.getByLabel('Value').fill(`value of ${name}`)
    await page.getByLabel('Value').press('Enter')
    await expect(page.getByTestId(`secret-${name}`)).toBeVisible()
  }
  await page.getByRole('button', { name: 'Delete personal secret FIRST_TOKEN' }).focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('alertdialog', { name: 'Delete FIRST_TOKEN?' })
  await dialog.getByRole('button', { name: 'Delete' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('secret-FIRST_TOKEN')).toHaveCount(0)
  // The dialog's trigger went with its row: the focus is on the list, not on the page.
  await expect(page.getByRole('heading', { name: 'Stored secrets' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: 'Delete personal secret SECOND_TOKEN' })).toBeFocused()
})
