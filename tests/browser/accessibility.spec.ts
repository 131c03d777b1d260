/**
 * Every page people use, signed out and signed in, light and dark, is read twice on each load:
 * - axe's WCAG 2.1 A and AA rules (decision 0412): names for buttons, links and fields, valid
 *   ARIA, landmarks, headings, language, with what opens over the pages;
 * - our own contrast scan (decision 0372): every piece of text against what it is drawn on, muted
 *   timestamps and labels on orange buttons alike, which axe leaves as "needs review" where it
 *   cannot tell the background.
 * Each finding is listed with its page, rule or ratio and element, so one failure shows all there
 * are. The pages only a link of one's own opens are read where a spec follows such a link: the
 * invitation (accounts.spec.ts) and the reset page (reset-link.spec.ts).
 */
import { expect, test, type Page } from '@playwright/test'
import { axeFindings } from './axe.ts'
import { appReady, personWithEverything } from './every-page.ts'
import { textsBelowAA, useTheme, VIEWPORTS } from './look.ts'

// Some twenty-five page loads a test, each read by axe, on a busy machine; the tests run side by side.
test.describe.configure({ mode: 'parallel', timeout: 300_000 })

/** What axe and the contrast scan find on the page as loaded, in the theme it was told to use. */
async function findingsOn(page: Page, url: string, ready: () => Promise<void>): Promise<string[]> {
  await load(page, url, ready)
  const theme = (await page.evaluate(() => localStorage.getItem('clockwork-theme'))) ?? 'light'
  expect(await page.evaluate(() => document.documentElement.classList.contains('dark')), url).toBe(
    theme === 'dark',
  )
  const lowContrast = (await textsBelowAA(page)).map(
    (f) => `${url}: "${f.text}" ${f.where} ${f.ratio} < ${f.needs}`,
  )
  return [...(await axeFindings(page, url)), ...lowContrast].map((f) => `${theme} ${f}`)
}

/** What axe finds on `url` once `open` has opened something over it. */
async function findingsWithOpen(
  page: Page,
  url: string,
  ready: () => Promise<void>,
  open: () => Promise<void>,
) {
  await load(page, url, ready)
  await open()
  return axeFindings(page, url)
}

async function load(page: Page, url: string, ready: () => Promise<void>) {
  await page.goto(url)
  await ready()
}

test('the signed-out pages pass axe and the contrast scan, light and dark', async ({ page }) => {
  const found: string[] = []
  // A form's button waits for the page's scripts, disabled (and exempt from contrast) before.
  const shown = async () => {
    await expect(page.locator('main, form').first()).toBeVisible()
    const submit = page.locator('form button[type="submit"]')
    if (await submit.count()) await expect(submit.first()).toBeEnabled()
  }
  for (const theme of ['light', 'dark'] as const) {
    await page.goto('/sign-in')
    await useTheme(page, theme)
    for (const url of ['/sign-in', '/sign-up', '/forgot-password', '/no-such-page'])
      found.push(...(await findingsOn(page, url, shown)))
  }
  expect(found).toEqual([])
})

for (const theme of ['light', 'dark'] as const) {
  test(`every signed-in page passes axe and the contrast scan, with what opens over it (${theme})`, async ({
    page,
    baseURL,
  }) => {
    const { jobId, jobName, pages } = await personWithEverything(page, baseURL!, `Alex Axe-${theme}`)
    const ready = () => appReady(page)
    await useTheme(page, theme)
    const found: string[] = []
    for (const url of pages) found.push(...(await findingsOn(page, url, ready)))

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
          // From the keyboard, as a person who tabs there would: in one CI run a pointer click
          // here, on a loaded machine, left the picker closed (not seen again in 60 tries).
          await page.getByLabel('Time zone').focus()
          await page.keyboard.press('Enter')
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
      found.push(...(await findingsWithOpen(page, url, ready, open)).map((o) => `${o} (${what} open)`))

    // The phone's menu: the same navigation, as a sheet.
    await page.setViewportSize(VIEWPORTS.phone)
    const phoneMenu = async () => {
      await page.getByRole('button', { name: 'Menu' }).click()
      await expect(page.getByRole('dialog')).toBeVisible()
    }
    found.push(
      ...(await findingsWithOpen(page, '/jobs', ready, phoneMenu)).map((o) => `phone ${o} (menu open)`),
    )
    expect(found).toEqual([])
  })
}
