/**
 * Before a page has hydrated, a button that acts only through script is disabled, so a press on
 * the server's HTML is visibly refused rather than silently lost (decision 0537). Every page is
 * read with script off, which is what a reader sees until the bundle has run; a submit button
 * is left alone, since its form posts without script.
 */
import { expect, test } from '@playwright/test'
import { appReady, personWithEverything } from './every-page.ts'

// A run to its end, then every page twice.
test.describe.configure({ timeout: 180_000 })

test('every page’s script-only buttons are disabled until it hydrates, and enabled after', async ({
  browser,
  page,
  baseURL,
}) => {
  const origin = baseURL!
  const { jobId, pages } = await personWithEverything(page, origin, 'Hal Hydrate')

  const scriptless = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  })
  const early = await scriptless.newPage()
  const pressable: string[] = []
  for (const path of pages) {
    await early.goto(new URL(path, origin).href)
    await expect(early.getByRole('main')).toBeVisible()
    const found = await early
      .locator('button:not([type="submit"]):enabled')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? b.textContent?.trim()))
    pressable.push(...found.map((name) => `${path}: ${name}`))
  }
  await scriptless.close()
  expect(pressable).toEqual([])

  await page.goto(`/jobs/${jobId}`)
  await appReady(page)
  for (const name of ['Run now', 'Pause', 'Delete']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeEnabled()
  }
})
