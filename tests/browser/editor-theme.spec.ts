import { expect, test } from '@playwright/test'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'
import { contrastOf, useTheme, VIEWPORTS } from './look.ts'

// Two themes, each with a page load of the editor: more than the default on a busy machine.
test.describe.configure({ timeout: 120_000 })

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test(`the workspace editor is readable in light and dark (${size})`, async ({ page }) => {
    await page.setViewportSize(viewport)
    await signUp(page, 'Edda Editor', uniqueEmail('edda'))
    await createJobOverApi(page, {
      name: 'contrast',
      schedule: '0 7 * * 1-5',
      instructions: 'Check the colours.',
    })

    for (const theme of ['dark', 'light'] as const) {
      // The app's theme is chosen against the system's (emulated the other way).
      await useTheme(page, theme)
      await page.goto('/workspace?scope=personal&path=jobs%2Fcontrast.md')
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
        theme === 'dark',
      )
      const editor = page.locator('.cm-content')
      await expect(editor).toContainText('schedule')
      const key = editor.locator('span').filter({ hasText: /^schedule$/ })
      const fence = editor.locator('.cm-line').filter({ hasText: /^---$/ }).first()
      const body = editor.locator('.cm-line').filter({ hasText: 'Check the colours.' })
      await expect(key).toHaveCount(1)
      // WCAG AA for body text: 4.5:1 against the card the editor sits on.
      for (const [what, part] of [
        ['key', key],
        ['---', fence],
        ['text', body],
      ] as const) {
        const ratio = await contrastOf(part)
        expect(ratio, `${theme} ${what}: contrast ${ratio.toFixed(2)}`).toBeGreaterThanOrEqual(4.5)
      }
      // The active line (the cursor's) keeps its text readable too.
      await body.click()
      const active = editor.locator('.cm-activeLine')
      await expect(active).toContainText('Check the colours.')
      expect(await contrastOf(active)).toBeGreaterThanOrEqual(4.5)
    }
  })
}
