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
  const lookInactive: string[] = []
  let waiting = 0
  for (const path of pages) {
    await early.goto(new URL(path, origin).href)
    await expect(early.getByRole('main')).toBeVisible()
    const found = await early
      .locator('button:not([type="submit"]):enabled')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? b.textContent?.trim()))
    pressable.push(...found.map((name) => `${path}: ${name}`))
    // Disabled only until the script arrives, a Button already looks as it will once enabled (no
    // faded colour, no refusing cursor), so nothing fades in as the page hydrates. One with nothing
    // to do yet (aria-disabled: a Discard with nothing to discard) looks so already.
    const held = await early
      .locator('button[data-hydrating]:not([aria-disabled="true"])')
      .evaluateAll((buttons) =>
        buttons.map((b) => ({ name: b.textContent?.trim(), cursor: getComputedStyle(b).cursor })),
      )
    waiting += held.length
    lookInactive.push(...held.filter((b) => b.cursor === 'not-allowed').map((b) => `${path}: ${b.name}`))
  }
  await scriptless.close()
  expect(pressable).toEqual([])
  expect(waiting).toBeGreaterThan(0)
  expect(lookInactive).toEqual([])

  await page.goto(`/jobs/${jobId}`)
  await appReady(page)
  for (const name of ['Run now', 'Pause', 'Delete']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeEnabled()
  }
})
