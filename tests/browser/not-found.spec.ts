/**
 * Addresses with nothing (for this person) behind them: a job that does not exist or is someone
 * else's, a run that is not the job's, an unknown environment, an unknown page. Each answers 404
 * and says so inside the app, its navigation still there, with a link back to the list it would
 * be in, reachable from the keyboard (decision 0529).
 */
import { expect, test, type Page } from '@playwright/test'
import { appReady } from './every-page.ts'
import { createJobOverApi, runToEnd, signUp, uniqueEmail } from './helpers.ts'
import { expectWhole, textsBelowAA, useTheme, VIEWPORTS } from './look.ts'

// Two sign-ups and a run on a busy machine.
test.describe.configure({ timeout: 150_000 })

/** Opens `url`: a 404, the card inside the app, and its link back (focused, followed) to `backTo`. */
async function expectNotFound(
  page: Page,
  url: string,
  { title, back, backTo }: { title: string; back: string; backTo: RegExp },
) {
  const res = await page.goto(url)
  expect(res?.status(), url).toBe(404)
  await appReady(page)
  const card = page.getByTestId('page-error')
  await expect(card.getByRole('heading', { level: 1 }), url).toHaveText(title)
  // The app's navigation: the sidebar, or on a phone its menu button.
  const phone = page.viewportSize()!.width < 768
  const nav = phone
    ? page.getByRole('button', { name: 'Menu' })
    : page.getByRole('navigation', { name: 'Main' })
  await expect(nav, url).toBeVisible()
  await expect(page.getByRole('button', { name: 'Ask the agent' }), url).toBeVisible()
  await expect(page.getByText(/Internal Server Error|Unexpected Server Error/)).toHaveCount(0)
  expect(await textsBelowAA(page), url).toEqual([])
  const link = card.getByRole('link', { name: back })
  await expectWhole(link)
  await link.focus()
  await expect(link).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(backTo)
}

/** A job of the person signed in on `p`; answers its id. */
async function makeJob(p: Page, name: string): Promise<string> {
  return (await createJobOverApi(p, { name, schedule: '0 7 * * 1-5', instructions: 'Count.' })).id
}

test('what is not there answers 404 inside the app, with the way back to its list', async ({
  page,
  browser,
  baseURL,
}) => {
  // Someone else's job: for this person it does not exist.
  const other = await browser.newPage()
  await signUp(other, 'Olive Other', uniqueEmail('olive'))
  const theirJob = await makeJob(other, 'not-yours')
  await other.close()

  await signUp(page, 'Nina Notfound', uniqueEmail('nina'))
  const jobId = await makeJob(page, 'mine')
  const run = await runToEnd(page, baseURL!, jobId)

  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, theme)
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport)
      const at = `${theme}, ${size}`
      await test.step(`an unknown page (${at})`, () =>
        expectNotFound(page, '/no-such-page/here', {
          title: 'Page not found',
          back: 'Back to jobs',
          backTo: /\/jobs$/,
        }))
      await test.step(`a job that does not exist (${at})`, () =>
        expectNotFound(page, '/jobs/job_doesnotexist', {
          title: 'This job does not exist',
          back: 'Back to jobs',
          backTo: /\/jobs$/,
        }))
      await test.step(`someone else’s job (${at})`, () =>
        expectNotFound(page, `/jobs/${theirJob}`, {
          title: 'This job does not exist',
          back: 'Back to jobs',
          backTo: /\/jobs$/,
        }))
      await test.step(`a run that is not there (${at})`, () =>
        expectNotFound(page, `/jobs/${jobId}/runs/run_doesnotexist`, {
          title: 'This run does not exist',
          back: 'Back to the job',
          backTo: new RegExp(`/jobs/${jobId}$`),
        }))
      await test.step(`a run of another job (${at})`, () =>
        expectNotFound(page, `/jobs/${theirJob}/runs/${run.id}`, {
          title: 'This run does not exist',
          back: 'Back to the job',
          backTo: new RegExp(`/jobs/${theirJob}$`),
        }))
      await test.step(`an unknown environment (${at})`, () =>
        expectNotFound(page, '/environments/no-such-environment', {
          title: 'This environment does not exist',
          back: 'Back to environments',
          backTo: /\/environments$/,
        }))
    }
  }
})

test('signed out, an unknown page is still the plain 404', async ({ page }) => {
  const res = await page.goto('/no-such-page/here')
  expect(res?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found')
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)
})
