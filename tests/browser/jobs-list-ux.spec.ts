import { expect, test } from '@playwright/test'
import { createJobOverApi, runToEnd, signUp, uniqueEmail } from './helpers.ts'
import { VIEWPORTS } from './look.ts'

test('the jobs list shows the latest runs as dots and has a keyboard row menu', async ({ page, baseURL }) => {
  await signUp(page, 'Dot Dottie', uniqueEmail('dottie'))
  const job = await createJobOverApi(page, { name: 'dots', schedule: '0 7 1 1 *', instructions: 'Count.' })
  // Each run ends (success or error, whatever the shared server's model says) as a dot.
  let last = ''
  for (let i = 0; i < 2; i++) {
    last = (await runToEnd(page, baseURL!, job.id, 20_000)).status
    expect(last).toMatch(/^(success|error)$/)
  }

  await page.goto('/jobs')
  const row = page.getByTestId('job-row-dots')
  const dots = row.getByTestId('run-dots').getByRole('link')
  await expect(dots).toHaveCount(2)
  // Oldest first: the newest run is the last dot.
  await expect(dots.last()).toHaveAttribute('data-status', last)
  await expect(dots.first()).toHaveAttribute('href', new RegExp(`/jobs/${job.id}/runs/run_`))

  // Pause and resume from the menu, with the keyboard.
  const menu = row.getByRole('button', { name: 'Actions for dots' })
  await expect(menu).toBeEnabled() // once the page has hydrated (decision 0537)
  await menu.focus()
  await page.keyboard.press('Enter')
  await page.getByRole('menuitem', { name: 'Pause' }).focus()
  await page.keyboard.press('Enter')
  await expect(row.getByRole('switch', { name: 'Enabled: dots' })).not.toBeChecked()
  await menu.click()
  await page.getByRole('menuitem', { name: 'Resume' }).click()
  await expect(row.getByRole('switch', { name: 'Enabled: dots' })).toBeChecked()

  await menu.click()
  await page.getByRole('menuitem', { name: 'Run now' }).click()
  await expect(page.getByText('Run of dots queued')).toBeVisible()
  // The list is not live: once the run has finished, a reload shows its dot.
  await expect
    .poll(
      async () => {
        await page.reload()
        return row.getByTestId('run-dots').getByRole('link').count()
      },
      { timeout: 30_000 },
    )
    .toBe(3)

  await menu.click()
  await page.getByRole('menuitem', { name: 'Duplicate' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'dots-copy' })).toBeVisible()
  await expect(page).toHaveURL(/\?tab=definition$/)
  await expect(page.getByLabel('Prompt')).toHaveValue('Count.')
})

test('a light / dark / system theme toggle that is kept and applied before the first paint', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' })
  await signUp(page, 'Theo Theme', uniqueEmail('theo'))
  await page.goto('/settings/profile')
  const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'))
  await expect(page.getByRole('radio', { name: 'System' })).toHaveAttribute('aria-checked', 'true')
  expect(await isDark()).toBe(false)
  await page.getByRole('radio', { name: 'Dark' }).click()
  expect(await isDark()).toBe(true)

  // Applied by the head script, before any app code runs (no light flash).
  await page.goto('/jobs', { waitUntil: 'commit' })
  await page.waitForFunction(() => document.body !== null)
  expect(await isDark()).toBe(true)
  await page.waitForLoadState('load')
  await expect(page.locator('body')).toHaveCSS('background-color', /oklch\(0\.14|rgb\(12, 10, 9\)/)

  await page.goto('/settings/profile')
  await page.getByRole('radio', { name: 'Light' }).click()
  expect(await isDark()).toBe(false)
  await page.getByRole('radio', { name: 'System' }).click()
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect.poll(isDark).toBe(true)
})

test('on a wide screen the open chat panel pushes the page aside instead of covering it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await signUp(page, 'Wade Wide', uniqueEmail('wade'))
  await page.goto('/jobs')
  await expect(page.getByRole('button', { name: 'Ask the agent' })).toHaveAttribute('data-ready', 'true')
  await page.keyboard.press('Control+j')
  const panel = page.getByRole('complementary', { name: 'Agent chat' })
  await expect(panel).toBeVisible()
  const panelBox = (await panel.boundingBox())!
  const header = (await page.locator('#main h1').boundingBox())!
  const content = (await page.locator('#main > div').boundingBox())!
  expect(content.x + content.width).toBeLessThanOrEqual(panelBox.x + 1)
  expect(header.x + header.width).toBeLessThanOrEqual(panelBox.x + 1)
  const scrolls = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
  expect(scrolls).toBe(false)
})

test('the list’s links open pages in the app; a modified click is left to the browser', async ({
  page,
  context,
}) => {
  await signUp(page, 'Link Lee', uniqueEmail('lee'))
  await createJobOverApi(page, { name: 'linked', schedule: '0 7 1 1 *', instructions: 'Count.' })
  await page.goto('/jobs')
  // The switch is enabled once the page has hydrated (before that a link is a plain link).
  await expect(page.getByRole('switch', { name: 'Enabled: linked' })).toBeEnabled()
  await page.evaluate(() => Object.assign(window, { samePage: true }))
  const link = page.getByRole('link', { name: 'linked', exact: true })

  // A click with Ctrl (⌘) opens the job in a tab of its own and leaves the list where it is.
  const tab = context.waitForEvent('page')
  await link.click({ modifiers: ['ControlOrMeta'] })
  await (await tab).close()
  await expect(page).toHaveURL(/\/jobs$/)

  // A plain click navigates in the app: no document load (what the list page set is still there).
  await link.click()
  await expect(page.getByRole('heading', { level: 1, name: 'linked' })).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
})

test.describe('far from the server’s time zone', () => {
  // UTC+14: every run's local date and hour differ from the server's UTC.
  const zone = 'Pacific/Kiritimati'
  test.use({ timezoneId: zone })

  test('a run dot’s tooltip gives the run’s time in the viewer’s zone once the page is live', async ({
    page,
    baseURL,
  }) => {
    await signUp(page, 'Kiri Time', uniqueEmail('kiri'))
    const job = await createJobOverApi(page, {
      name: 'far-away',
      schedule: '0 7 1 1 *',
      instructions: 'Count.',
    })
    const run = await runToEnd(page, baseURL!, job.id, 20_000)
    expect(run.status).toMatch(/^(success|error)$/)
    const at = new Date(run.scheduledFor)
    const inZone = new Intl.DateTimeFormat('en-GB', {
      ...{ day: '2-digit', month: '2-digit', year: 'numeric' },
      ...{ hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
      timeZone: zone,
    }).format(at)

    await page.goto('/jobs')
    const dot = page.getByTestId('job-row-far-away').getByTestId('run-dots').getByRole('link')
    // The server renders UTC and says so; the browser then shows the viewer's own time.
    await expect(dot).toHaveAttribute('title', new RegExp(`· ${inZone.replace(/[/]/g, '\\/')}$`))
  })
})

test('the last run’s outcome and its dots share a line, and a phone’s search box is as wide as the list', async ({
  page,
  baseURL,
}) => {
  await signUp(page, 'Lina Line', uniqueEmail('lina'))
  const job = await createJobOverApi(page, {
    name: 'one-line',
    schedule: '0 7 1 1 *',
    instructions: 'Count.',
  })
  await runToEnd(page, baseURL!, job.id, 20_000)

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport)
    await page.goto('/jobs')
    const row = page.getByTestId('job-row-one-line')
    const chip = await row.getByText(/^(Succeeded|Failed)$/).boundingBox()
    const dot = await row.getByTestId('run-dots').getByRole('link').boundingBox()
    // The dot's middle lies within the chip's height: beside it, not alone on a line below.
    const middle = dot!.y + dot!.height / 2
    expect(middle, `the dot sits below the outcome at ${size}`).toBeLessThan(chip!.y + chip!.height)
    expect(middle, `the dot sits above the outcome at ${size}`).toBeGreaterThan(chip!.y)

    if (size === 'phone') {
      const search = await page.getByRole('searchbox').boundingBox()
      const list = await page.getByRole('table').boundingBox()
      // Within the list card's 1 px border.
      expect(search!.x + search!.width, 'the search box ends short of the list').toBeGreaterThanOrEqual(
        list!.x + list!.width - 2,
      )
    }
  }
})
