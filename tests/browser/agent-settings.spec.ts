import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

test('an owner switches run code off and on in Settings → Agent, and the API agrees', async ({ page }) => {
  await signUp(page, 'Rita Runner', uniqueEmail('rita'))
  await page.goto('/settings')
  await page.getByRole('link', { name: 'Agent' }).click()
  await expect(page).toHaveURL(/\/settings\/agent/)
  await expect(page.getByTestId('isolation-level')).toHaveText(/strong|reduced/)

  const runCode = page.getByRole('switch', { name: 'Run code' })
  await expect(runCode).toHaveAttribute('aria-checked', 'true')
  await runCode.click()
  await expect(page.getByText('Run code: off')).toBeVisible()
  const api = async () => (await page.request.get('/_agent-native/org-settings')).json()
  expect((await api()).settings).toMatchObject({ runCode: false, cli: true, webFetch: true, exec: true })

  // Still off after a fresh load; keyboard users can switch it back on.
  await page.reload()
  await expect(runCode).toHaveAttribute('aria-checked', 'false')
  // Enabled once the page has hydrated: a key pressed on the server's HTML does nothing.
  await expect(runCode).toBeEnabled()
  await runCode.focus()
  await page.keyboard.press('Space')
  await expect(page.getByText('Run code: on')).toBeVisible()
  expect((await api()).settings).toMatchObject({ runCode: true, cli: true, webFetch: true, exec: true })
})
