/**
 * Decision 0372: every piece of text on the pages people use every day reaches WCAG AA contrast
 * against what it is drawn on, in the light theme and the dark: muted timestamps and hints, the
 * settings tabs, and the label on an orange primary button alike. The scan lists each offender
 * with its ratio, so one failure shows all there are.
 */
import { expect, test, type Page } from '@playwright/test'
import { appReady as signedInReady, personWithEverything } from './every-page.ts'
import { textsBelowAA, useTheme, type LowContrast } from './look.ts'

// Two themes across some twenty page loads, on a busy machine.
test.describe.configure({ timeout: 240_000 })

/** Loads `url` once its scripts run (buttons waiting for them are disabled, and exempt, before). */
async function offendersOn(page: Page, url: string, ready: () => Promise<void>): Promise<string[]> {
  await page.goto(url)
  await ready()
  const theme = await page.evaluate(() => localStorage.getItem('clockwork-theme'))
  expect(await page.evaluate(() => document.documentElement.classList.contains('dark')), url).toBe(
    theme === 'dark',
  )
  const found: LowContrast[] = await textsBelowAA(page)
  return found.map((f) => `${url}: "${f.text}" ${f.where} ${f.ratio} < ${f.needs}`)
}

test('text on the everyday pages reaches AA contrast in light and dark', async ({ page, baseURL }) => {
  const origin = baseURL!
  // Signed out first: the sign-in page.
  const signInReady = () => expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled()
  const offenders: string[] = []
  for (const theme of ['light', 'dark'] as const) {
    await page.goto('/sign-in')
    await useTheme(page, theme)
    offenders.push(...(await offendersOn(page, '/sign-in', signInReady)).map((o) => `${theme} ${o}`))
  }

  const { pages } = await personWithEverything(page, origin, 'Cora Contrast')
  const appReady = () => signedInReady(page)
  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, theme)
    for (const url of pages) {
      offenders.push(...(await offendersOn(page, url, appReady)).map((o) => `${theme} ${o}`))
    }
  }
  expect(offenders).toEqual([])
})
