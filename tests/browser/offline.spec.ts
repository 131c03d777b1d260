/**
 * The network drops, or the server stops answering, while someone uses the app: a link they
 * follow, a list they sort. The app stays (its navigation, its header), says it cannot reach
 * Clockwork in words, and its Retry loads the page once the server answers again (decision 0529).
 */
import { expect, test, type Page } from '@playwright/test'
import { appReady } from './every-page.ts'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'
import { textsBelowAA, useTheme, VIEWPORTS } from './look.ts'

// A sign-up on a busy machine.
test.describe.configure({ timeout: 120_000 })

/**
 * The calendar page's code is in the browser before anyone follows a link to it: the app fetches
 * every page's code once the first page shows, since offline React Router would reload the whole
 * document for it (the browser's own error page).
 */
async function pagesFetched(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const calendar = window.__reactRouterManifest?.routes['routes/_app.calendar']?.module
          if (!calendar) return false
          const href = new URL(calendar, location.href).href
          return performance.getEntriesByType('resource').some((entry) => entry.name === href)
        }),
      { message: 'the calendar page’s code is fetched ahead of need' },
    )
    .toBe(true)
}

/** The card that says so, inside the app: the main navigation and the agent's button still there. */
async function expectUnreachableInApp(page: Page) {
  const card = page.getByTestId('page-error')
  await expect(card.getByRole('heading', { level: 1 })).toHaveText('Can’t reach Clockwork')
  await expect(card).toContainText('Check your connection')
  await expect(page.getByRole('button', { name: 'Ask the agent' })).toBeVisible()
  return card
}

for (const theme of ['light', 'dark'] as const) {
  test(`a link followed offline keeps the app and says it cannot reach Clockwork; Retry loads the page once back (${theme})`, async ({
    page,
    context,
  }) => {
    await page.setViewportSize(VIEWPORTS.desktop)
    await signUp(page, `Otto Offline-${theme}`, uniqueEmail('otto'))
    await useTheme(page, theme)
    await page.goto('/jobs')
    await appReady(page)
    await pagesFetched(page)

    await context.setOffline(true)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).click()
    const card = await expectUnreachableInApp(page)
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
    expect(await textsBelowAA(page)).toEqual([])

    // Retry works from the keyboard: still offline, it says it tried.
    const retry = card.getByRole('button', { name: 'Retry' })
    await expect(retry).toBeEnabled() // once the page has hydrated (decision 0537)
    await retry.focus()
    await expect(retry).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(card).toContainText('Tried again: still no answer.')

    await context.setOffline(false)
    await retry.click()
    await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible()
    await expect(page.getByTestId('page-error')).toHaveCount(0)
  })
}

test('a list sorted while the server does not answer keeps the app, and Retry sorts it once it does', async ({
  page,
}) => {
  await signUp(page, 'Sora Sorted', uniqueEmail('sora'))
  for (const name of ['alpha-job', 'beta-job']) {
    await createJobOverApi(page, { name, schedule: '0 7 * * 1-5', instructions: 'Count.' })
  }
  await page.goto('/jobs')
  await appReady(page)
  // The server stops answering: every request for a page's data is refused. Sorting changes the
  // address's query, so the app layout's own data is asked for again too, and fails first.
  const down = /\.data(\?|$)/
  await page.route(down, (route) => route.abort('connectionrefused'))
  await page.getByRole('columnheader', { name: 'Name' }).getByRole('link').click()
  const card = await expectUnreachableInApp(page)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await expect(page).toHaveURL(/dir=desc/)

  await page.unroute(down)
  await card.getByRole('button', { name: 'Retry' }).click()
  const rows = page.getByTestId('jobs-table').getByRole('row')
  await expect(rows.nth(1)).toContainText('beta-job')
  await expect(page.getByTestId('page-error')).toHaveCount(0)
})
