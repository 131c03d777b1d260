import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'
import { VIEWPORTS } from './look.ts'

test.describe.configure({ timeout: 120_000 })

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test(`create an environment from the Environments page, with the keyboard (${size})`, async ({ page }) => {
    await page.setViewportSize(viewport)
    await signUp(page, 'Nia New', uniqueEmail('nia'))
    await page.goto('/environments')
    // The list is not empty (scratch is in it), so no "none yet" above it; a nudge below instead.
    await expect(page.getByTestId('environment-personal-scratch')).toBeVisible()
    await expect(page.getByText(/no environments/i)).toHaveCount(0)
    await expect(page.getByTestId('only-scratch')).toContainText('Only the built-in scratch so far')

    // The header's button, from the keyboard: a dialog asking name and scope.
    const open = page.getByRole('button', { name: 'New environment' })
    await expect(open).toBeEnabled()
    await open.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'New environment' })
    await expect(dialog.getByLabel('Name')).toBeFocused()
    await page.keyboard.type('Data Scripts')
    await dialog.getByLabel('Workspace').selectOption('shared')
    await dialog.getByLabel('Name').press('Enter')

    // It opens the new environment; its definition is a workspace file like any other.
    await expect(page).toHaveURL(/\/environments\/data-scripts\?scope=shared$/)
    await expect(page.getByRole('heading', { level: 1, name: 'data-scripts' })).toBeVisible()
    const file = await page.request.get('/_agent-native/resources/shared/environments/data-scripts.md')
    expect(file.status()).toBe(200)
    expect(await file.text()).toContain('provider: local')

    // The list shows it, and the nudge is gone.
    await page.goto('/environments')
    await expect(page.getByTestId('environment-shared-data-scripts')).toBeVisible()
    await expect(page.getByTestId('only-scratch')).toHaveCount(0)

    // The same name again is refused in the dialog, next to the field; nothing is overwritten.
    await page.getByRole('button', { name: 'New environment' }).click()
    const again = page.getByRole('dialog', { name: 'New environment' })
    await again.getByLabel('Name').fill('data-scripts')
    await again.getByLabel('Workspace').selectOption('shared')
    await again.getByRole('button', { name: 'Create' }).click()
    await expect(again).toContainText('shared/environments/data-scripts.md already exists')
    await expect(again.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true')
    await page.keyboard.press('Escape')
    await expect(again).toBeHidden()
    await expect(page).toHaveURL(/\/environments$/)
  })
}
