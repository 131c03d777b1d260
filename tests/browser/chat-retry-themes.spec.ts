/**
 * Issue 26 item 10 in both themes: chat-look.spec.ts follows an overloaded model's retries and
 * Retry; here the "retrying" notice, the error and its Retry button are measured for contrast in
 * light and dark, at desktop and phone sizes.
 */
import { randomBytes } from 'node:crypto'
import { expect, type Page } from '@playwright/test'
import { test } from './agent-server.ts'
import { signUp, uniqueEmail } from './helpers.ts'
import { contrastOf, useTheme, VIEWPORTS } from './look.ts'

// Two themes, each waiting out two retries, on a busy machine.
test.describe.configure({ timeout: 150_000 })

const chatPanel = (page: Page) => page.getByRole('complementary', { name: 'Agent chat' })

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test(`the chat's "retrying" notice, error and Retry are readable in light and dark (${size})`, async ({
    page,
    fake,
  }) => {
    await page.setViewportSize(viewport)
    await signUp(page, 'Remy Retry', uniqueEmail('remy'))
    for (const theme of ['light', 'dark'] as const) {
      const tag = randomBytes(3).toString('hex')
      // Each 529 asks for a 2 s wait: long enough to measure the notice.
      const overloaded = {
        status: 529,
        errorType: 'overloaded_error',
        message: 'Overloaded',
        headers: { 'retry-after-ms': '2000' },
      }
      fake.replyWhen(tag, overloaded, overloaded, overloaded, { text: `Answered at last (${tag}).` })
      await useTheme(page, theme)
      await page.goto('/jobs')
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
        theme === 'dark',
      )
      await expect(page.getByRole('button', { name: 'Ask the agent' })).toHaveAttribute('data-ready', 'true')
      await page.keyboard.press('ControlOrMeta+j')
      const panel = chatPanel(page)
      const input = panel.getByLabel('Message the agent')
      await input.fill(`summarise the week (${tag})`)
      await input.press('Enter')

      const notice = panel.getByTestId('chat-retrying')
      await expect(notice).toContainText('try 2 of 3')
      expect(await contrastOf(notice), `${theme}: the retrying notice`).toBeGreaterThanOrEqual(4.5)
      const alert = panel.getByRole('alert')
      await expect(alert).toContainText('did not answer after 3 tries')
      expect(await contrastOf(alert), `${theme}: the error`).toBeGreaterThanOrEqual(4.5)
      const retry = alert.getByRole('button', { name: 'Retry' })
      expect(await contrastOf(retry), `${theme}: Retry`).toBeGreaterThanOrEqual(4.5)
      await retry.click()
      await expect(panel.getByText(`Answered at last (${tag}).`)).toBeVisible()
    }
  })
}
