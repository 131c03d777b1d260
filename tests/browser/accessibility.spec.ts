/**
 * Decision 0412: every page people use passes axe's WCAG 2.1 A and AA rules (names for buttons,
 * links and fields, valid ARIA, landmarks, headings, language), signed out and signed in, light
 * and dark, with what opens over the pages. Contrast is axe's check here too, beside
 * contrast.spec's own scan. Each finding is listed with its page, rule and element.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { appReady, personWithEverything } from './every-page.ts'
import { useTheme, VIEWPORTS } from './look.ts'

// Some twenty-five page loads a test, each read by axe, on a busy machine; the tests run side by side.
test.describe.configure({ mode: 'parallel', timeout: 300_000 })

/** What axe finds on the page as loaded (and then opened, if asked), one line per rule and element. */
async function violationsOn(
  page: Page,
  url: string,
  ready: () => Promise<void>,
  open?: () => Promise<void>,
): Promise<string[]> {
  await page.goto(url)
  await ready()
  await open?.()
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  return violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${url}: ${v.id} (${v.help}) at ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join('; ')}`,
    ),
  )
}

test('the signed-out pages pass axe, light and dark', async ({ page }) => {
  const found: string[] = []
  const shown = () => expect(page.locator('main, form').first()).toBeVisible()
  for (const theme of ['light', 'dark'] as const) {
    await page.goto('/sign-in')
    await useTheme(page, theme)
    for (const url of ['/sign-in', '/sign-up', '/forgot-password', '/no-such-page'])
      found.push(...(await violationsOn(page, url, shown)).map((o) => `${theme} ${o}`))
  }
  expect(found).toEqual([])
})

for (const theme of ['light', 'dark'] as const) {
  test(`every signed-in page passes axe, with what opens over it (${theme})`, async ({ page, baseURL }) => {
    const { jobId, jobName, pages } = await personWithEverything(page, baseURL!, `Alex Axe-${theme}`)
    const ready = () => appReady(page)
    await useTheme(page, theme)
    const found: string[] = []
    for (const url of pages) found.push(...(await violationsOn(page, url, ready)))

    const opened: [string, string, () => Promise<void>][] = [
      [
        '/jobs',
        'the agent panel',
        async () => {
          await page.keyboard.press('Control+j')
          await expect(page.getByLabel('Message the agent')).toBeFocused()
        },
      ],
      [
        '/jobs',
        'the account menu',
        async () => {
          await page.getByRole('button', { name: /^Account: Alex Axe/ }).click()
          await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible()
        },
      ],
      [
        '/jobs',
        'the organisation menu',
        async () => {
          await page.getByRole('button', { name: /^Organisation: / }).click()
          await expect(page.getByRole('menuitem', { name: /current/ })).toBeVisible()
        },
      ],
      [
        '/jobs',
        "a job's actions",
        async () => {
          await page.getByRole('button', { name: `Actions for ${jobName}` }).click()
          await expect(page.getByRole('menu')).toBeVisible()
        },
      ],
      [
        `/jobs/${jobId}`,
        'the delete confirmation',
        async () => {
          await page.getByRole('button', { name: 'Delete' }).click()
          await expect(page.getByRole('alertdialog')).toBeVisible()
        },
      ],
      [
        '/jobs/new',
        'the time zone picker',
        async () => {
          await page.getByLabel('Time zone').click()
          await expect(page.getByRole('combobox', { name: 'Search time zones' })).toBeFocused()
        },
      ],
      [
        '/workspace',
        'the new environment dialog',
        async () => {
          await page.getByRole('button', { name: 'Environment' }).click()
          await expect(page.getByRole('dialog')).toBeVisible()
        },
      ],
    ]
    for (const [url, what, open] of opened)
      found.push(...(await violationsOn(page, url, ready, open)).map((o) => `${o} (${what} open)`))

    // The phone's menu: the same navigation, as a sheet.
    await page.setViewportSize(VIEWPORTS.phone)
    const phoneMenu = async () => {
      await page.getByRole('button', { name: 'Menu' }).click()
      await expect(page.getByRole('dialog')).toBeVisible()
    }
    found.push(...(await violationsOn(page, '/jobs', ready, phoneMenu)).map((o) => `phone ${o} (menu open)`))
    expect(found).toEqual([])
  })
}
