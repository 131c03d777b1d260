import { expect, test } from '@playwright/test'
import { nextRuns } from '../../server/cron/cron.ts'
import { createJobOverApi, runToEnd, signUp, uniqueEmail } from './helpers.ts'
import { contrastOf, onOneLine, textsBelowAA, useTheme, VIEWPORTS } from './look.ts'

const ZONE = 'Europe/Berlin'

test('the calendar lists the fires nextRuns gives across a DST change, and makes a revocable feed', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  await signUp(page, 'Cal Endar', uniqueEmail('cal'))
  const headers = { origin: baseURL! }
  const zone = await page.request.post('/_agent-native/auth/update-user', {
    data: { timezone: ZONE },
    headers,
  })
  expect(zone.ok()).toBe(true)
  const jobs = [
    { name: 'night-report', schedule: '30 2 * * *' }, // 02:30 does not exist on 28 Mar 2027
    { name: 'pulse', schedule: 'every 12h' },
    { name: 'spring', schedule: 'at 2027-03-28T10:00' },
  ]
  for (const job of jobs) await createJobOverApi(page, { ...job, timezone: ZONE, instructions: 'Go.' })

  // The week of Berlin's 2027 spring-forward (Sunday 28 March).
  await page.goto('/calendar?start=2027-03-25&days=7')
  await expect(page.getByRole('heading', { name: 'Calendar', level: 1 })).toBeVisible()
  const dstDay = page.locator('[data-testid="calendar-day"][data-date="2027-03-28"]')
  await expect(dstDay.getByTestId('dst-badge')).toHaveText('DST UTC+01:00 → UTC+02:00')
  await expect(page.getByTestId('dst-badge')).toHaveCount(1)

  const from = new Date('2027-03-24T23:00:00Z') // 25 Mar 00:00 in Berlin
  const to = new Date('2027-03-31T22:00:00Z') // 1 Apr 00:00 in Berlin (summer time)
  const fires = page.getByTestId('calendar-fire')
  const listed = await fires.evaluateAll((els) => els.map((el) => el.getAttribute('data-at')))
  const expected = jobs
    .flatMap((job) =>
      nextRuns(job.schedule, { after: new Date(from.getTime() - 1), timezone: ZONE, count: 20 }),
    )
    .filter((d) => d < to)
    .map((d) => d.toISOString())
    .sort()
  expect([...listed].sort()).toEqual(expected)
  // The 02:30 job fires when the gap ends: 03:00 local on the DST day.
  await expect(dstDay.getByRole('link', { name: /03:00 night-report/ })).toBeVisible()
  await expect(dstDay.getByRole('link', { name: /10:00 spring/ })).toBeVisible()

  // Day-by-day view and the job filter, through the form.
  await page.locator('select[name="view"]').selectOption('day')
  await expect(page.getByTestId('calendar-list')).toBeVisible()
  await page.locator('select[name="job"]').selectOption({ label: 'spring' })
  await expect(page).toHaveURL(/job=job_/)
  await expect(fires).toHaveCount(1)
  // Back undoes one choice at a time, and the form shows the choices of the page it is on.
  await page.goBack()
  await expect(page).not.toHaveURL(/job=job_/)
  await expect(page.locator('select[name="job"]')).toHaveValue('')
  await expect(page.locator('select[name="view"]')).toHaveValue('day')
  await page.goBack()
  await expect(page).not.toHaveURL(/view=/)
  await expect(page.getByTestId('calendar-list')).toHaveCount(0)
  await expect(page.locator('select[name="view"]')).toHaveValue('week')

  // The feed: made once, readable, then revoked.
  await page.getByRole('button', { name: 'New feed address' }).click()
  const url = (await page.getByTestId('calendar-feed-url').textContent()) ?? ''
  expect(url).toMatch(/\/_agent-native\/calendar\.ics\?token=cwc_/)
  const feed = await fetch(url)
  expect(feed.status).toBe(200)
  expect(await feed.text()).toContain('SUMMARY:night-report')
  await page.getByRole('button', { name: 'Revoke' }).click()
  await expect(page.getByTestId('calendar-token')).toHaveCount(0)
  expect((await fetch(url)).status).toBe(401)
})

test('a calendar address with a bad view or scope is a 400 that says what is wrong, not a server error', async ({
  page,
}) => {
  await signUp(page, 'Val View', uniqueEmail('val'))
  for (const [query, message] of [
    ['view=month', 'view: must be day or week'],
    ['scope=everyone', 'scope:'],
  ] as const) {
    const response = await page.goto(`/calendar?${query}`)
    expect(response?.status(), query).toBe(400)
    await expect(page.getByRole('heading', { name: 'That did not work' })).toBeVisible()
    await expect(page.getByRole('alert')).toContainText(message)
  }
})

test('a past run keeps its status on its line: a mark in a week’s column, the word in a phone’s day list', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000)
  await page.setViewportSize(VIEWPORTS.desktop)
  await signUp(page, 'Sue Status', uniqueEmail('sue'))
  // A name of usual length, and one longer than a phone's line: it wraps, its status stays.
  const names = ['inbox-triage', 'quarterly-revenue-summary-for-the-whole-growth-team']
  for (const name of names) {
    const job = await createJobOverApi(page, { name, schedule: '0 7 * * *', instructions: 'Go.' })
    const run = await runToEnd(page, baseURL!, job.id)
    expect(run.status, run.error ?? '').toBe('success')
  }
  const runs = page.getByTestId('calendar-run')
  const expectStatusesOnTheirLines = async (what: string) => {
    await expect(runs).toHaveCount(2)
    for (const run of await runs.all()) {
      const time = run.getByText(/^\d\d:\d\d$/)
      // What follows the name: the status.
      const status = run.locator('a > :last-child')
      expect(await onOneLine(time, status), `${what}: ${await run.textContent()}`).toBe(true)
    }
  }

  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, theme)
    await page.goto('/calendar')
    await expectStatusesOnTheirLines(`week, ${theme}`)
    // The mark is told apart by its shape and colour, both readable (3:1 for a graphic).
    const mark = runs.first().getByTestId('calendar-run-status').locator('svg')
    expect(await contrastOf(mark), theme).toBeGreaterThanOrEqual(3)
    await expect(runs.first().getByRole('link')).toHaveAccessibleName(/Succeeded/)
    expect(await textsBelowAA(page), theme).toEqual([])

    await page.setViewportSize(VIEWPORTS.phone)
    await page.goto('/calendar?view=day')
    await expectStatusesOnTheirLines(`phone day list, ${theme}`)
    // Room for the word here.
    await expect(runs.getByText('Succeeded', { exact: true }).filter({ visible: true })).toHaveCount(2)
    expect(await textsBelowAA(page), theme).toEqual([])
    await page.setViewportSize(VIEWPORTS.desktop)
  }
})

test('in the week view a day with nothing scheduled says so under its heading, on a desktop and a phone', async ({
  page,
  baseURL,
}) => {
  await signUp(page, 'Wes Weekend', uniqueEmail('wes'))
  const zone = await page.request.post('/_agent-native/auth/update-user', {
    data: { timezone: ZONE },
    headers: { origin: baseURL! },
  })
  expect(zone.ok()).toBe(true)
  // Weekdays only: the weekend of the week shown has nothing.
  await createJobOverApi(page, {
    name: 'weekday-digest',
    schedule: '0 7 * * 1-5',
    timezone: ZONE,
    instructions: 'Go.',
  })

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport)
    // Monday 15 to Sunday 21 March 2027.
    await page.goto('/calendar?start=2027-03-15&days=7')
    await expect(page.getByTestId('calendar-weeks')).toBeVisible()
    const day = (date: string) => page.locator(`[data-testid="calendar-day"][data-date="${date}"]`)
    // A screen reader reading the week hears, under each empty day's heading, that it is empty.
    for (const [date, heading] of [
      ['2027-03-20', 'Sat 20 Mar'],
      ['2027-03-21', 'Sun 21 Mar'],
    ] as const) {
      await expect(day(date), size).toMatchAriaSnapshot(`
        - region "${heading}":
          - heading "${heading}" [level=3]
          - paragraph: Nothing scheduled
      `)
      await expect(day(date).getByText('Nothing scheduled', { exact: true }), size).toBeVisible()
    }
    // A day with its run says nothing of the kind.
    await expect(day('2027-03-15').getByTestId('calendar-fire'), size).toHaveCount(1)
    await expect(day('2027-03-15').getByText('Nothing scheduled'), size).toHaveCount(0)
  }
})
