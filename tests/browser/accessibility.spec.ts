/**
 * Every page people use passes axe's WCAG 2.1 A and AA rules (names for buttons, links and fields,
 * valid ARIA, landmarks, headings, language), signed out and signed in, light and dark.
 * Contrast is axe's check here too, beside contrast.spec's own scan.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { appReady as signedInReady, personWithEverything } from './every-page.ts'
import { useTheme } from './look.ts'

test.describe.configure({ timeout: 300_000 })

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

test('every page passes axe, signed out and in, light and dark', async ({ page, baseURL }) => {
  const origin = baseURL!
  const found: string[] = []
  for (const theme of ['light', 'dark'] as const) {
    await page.goto('/sign-in')
    await useTheme(page, theme)
    for (const url of ['/sign-in', '/sign-up', '/forgot-password'])
      found.push(
        ...(
          await violationsOn(page, url, () => expect(page.locator('main, form').first()).toBeVisible())
        ).map((o) => `${theme} ${o}`),
      )
  }

  const { jobId, jobName, pages } = await personWithEverything(page, origin, 'Alex Axe')
  const appReady = () => signedInReady(page)
  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, theme)
    for (const url of pages)
      found.push(...(await violationsOn(page, url, appReady)).map((o) => `${theme} ${o}`))
    // What opens over a page: the agent's panel, the account menu, a confirmation.
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
    ]
    for (const [url, what, open] of opened)
      found.push(
        ...(await violationsOn(page, url, appReady, open)).map((o) => `${theme} ${o} (${what} open)`),
      )
    const notFound = () => expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
    found.push(...(await violationsOn(page, '/no-such-page', notFound)).map((o) => `${theme} ${o}`))
  }
  expect(found).toEqual([])
})
