/**
 * At phone size (390×844, an iPhone 12–15) every page fits the screen with no sideways scroll,
 * the navigation is a menu that opens and navigates, and the agent's button covers nothing.
 */
import { expect, test, type Page } from '@playwright/test'
import { createJobOverApi, runToEnd, signUp, uniqueEmail } from './helpers.ts'
import { fieldsCut } from './look.ts'

test.describe.configure({ timeout: 120_000 })
test.use({ viewport: { width: 390, height: 844 } })

async function createJob(page: Page) {
  const job = await createJobOverApi(page, {
    name: 'morning-digest',
    schedule: '0 7 * * 1-5',
    instructions: 'Summarise the night’s alerts.',
  })
  return job.id
}

/** Boxes inside the page that scroll sideways themselves (a table cut off at the screen's edge). */
async function sidewaysScrollers(page: Page) {
  return page.locator('main').evaluate((main) =>
    [main, ...main.querySelectorAll('*')]
      .filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 3).join('.')}`),
  )
}

/** How far the page reaches past the viewport's right edge (0 when it fits). */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const doc = document.documentElement
    return Math.max(doc.scrollWidth, document.body.scrollWidth) - doc.clientWidth
  })
}

test('every page fits 390 px with no horizontal scroll', async ({ page }) => {
  await signUp(page, 'Pia Phone', uniqueEmail('pia'))
  const jobId = await createJob(page)
  const pages = [
    '/jobs',
    '/jobs/new',
    `/jobs/${jobId}`,
    '/workspace',
    '/settings/profile',
    '/settings/members',
    '/settings/models',
  ]
  for (const url of pages) {
    await page.goto(url)
    await expect(page.locator('main')).toBeVisible()
    expect(await overflow(page), `${url} scrolls sideways`).toBe(0)
    expect(await sidewaysScrollers(page), `${url} has boxes cut off at the edge`).toEqual([])
  }
  // On a phone the next run is a line under the name: it reads "Next run: tomorrow", not "Next tomorrow".
  await page.goto('/jobs')
  await expect(page.locator('td.jt-next')).toHaveText(/^Next run: ?\S/)
})

test('Settings → Usage fits 390 px once its tables have rows', async ({ page, baseURL }) => {
  await signUp(page, 'Uri Usage', uniqueEmail('uri'))
  const jobId = await createJob(page)
  await runToEnd(page, baseURL!, jobId)
  await page.goto('/settings/usage')
  await expect(page.getByRole('table').filter({ hasText: 'morning-digest' })).toBeVisible()
  await expect(page.getByRole('table').filter({ hasText: 'Uri Usage' })).toBeVisible()
  expect(await overflow(page), '/settings/usage scrolls sideways').toBe(0)
  expect(await sidewaysScrollers(page), '/settings/usage has boxes cut off at the edge').toEqual([])
})

test('a job page fits 390 px once the job has runs', async ({ page, baseURL }) => {
  await signUp(page, 'Rae Runs', uniqueEmail('rae'))
  const jobId = await createJob(page)
  await runToEnd(page, baseURL!, jobId)
  // Seen a while later, as a person sees it: "47 minutes ago" is wider than the "now" of a run
  // that just ended, and pushed the cost off a phone's screen.
  await page.clock.setFixedTime(new Date(Date.now() + 47 * 60_000))
  await page.goto(`/jobs/${jobId}`)
  await expect(page.getByTestId('run-row')).toHaveCount(1)
  await expect(page.getByTestId('run-row')).toContainText('47 minutes ago')
  expect(await overflow(page), 'the job page scrolls sideways').toBe(0)
  expect(await sidewaysScrollers(page), 'the job page has boxes cut off at the edge').toEqual([])
})

test('the navigation is a menu that opens and navigates', async ({ page }) => {
  await signUp(page, 'Max Menu', uniqueEmail('max'))
  const menuButton = page.getByRole('button', { name: 'Menu' })
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden()
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false')

  await menuButton.click()
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav).toBeVisible()
  await nav.getByRole('link', { name: 'Workspace' }).click()
  await expect(page).toHaveURL(/\/workspace$/)
  await expect(nav).toBeHidden()

  // Escape closes it too, and focus returns to the button.
  await menuButton.click()
  await expect(nav).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(nav).toBeHidden()
  await expect(menuButton).toBeFocused()

  await menuButton.click()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
  await expect(page).toHaveURL(/\/settings/)
})

test('the agent button sits in the header and covers nothing', async ({ page }) => {
  await signUp(page, 'Ada Agent', uniqueEmail('ada'))
  await page.goto('/jobs/new')
  const ask = page.getByRole('button', { name: /Ask the agent/ })
  const header = page.getByRole('banner')
  await expect(header.getByRole('button', { name: /Ask the agent/ })).toBeVisible()
  // The form's own button, scrolled into view at the bottom of the screen, is not under it.
  const create = page.getByRole('button', { name: 'Create job' })
  await create.scrollIntoViewIfNeeded()
  const [a, c] = [await ask.boundingBox(), await create.boundingBox()]
  const overlaps =
    a && c && a.x < c.x + c.width && c.x < a.x + a.width && a.y < c.y + c.height && c.y < a.y + a.height
  expect(overlaps).toBeFalsy()
})

// The Agent select read "Claude Code (works in the environment)" and cut it to 274 of 309 px on a
// phone; the options are the agents' names now, and the field's hint says where they work.
test('the job form’s fields hold their options whole on a phone', async ({ page }) => {
  await signUp(page, 'Pia Phone', uniqueEmail('pia'))
  await page.goto('/jobs/new')
  await page.locator('summary', { hasText: 'Advanced' }).click()
  await expect(page.getByLabel('Agent', { exact: true })).toBeVisible()
  await expect(
    page.getByText('a coding agent (Claude Code, OpenCode) works in the job’s environment'),
  ).toBeVisible()
  expect(await fieldsCut(page.locator('main form'))).toEqual([])
})
