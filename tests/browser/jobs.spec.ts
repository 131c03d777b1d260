import { expect, test, type Page } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'
import { joinOrganisation } from './org.ts'

// Each test is a whole story of page loads and saves; a busy machine needs more than the default 60 s.
test.describe.configure({ timeout: 180_000 })

/** Fills the new-job form (the name, prompt, a schedule and a zone) and creates the job. */
async function createJob(
  page: Page,
  opts: { name: string; prompt: string; schedule: string; zone?: string; shared?: boolean },
) {
  await page.goto('/jobs/new')
  await page.getByLabel('Name').fill(opts.name)
  await page.getByLabel('Prompt').fill(opts.prompt)
  await page.getByLabel('Schedule', { exact: true }).fill(opts.schedule)
  if (opts.zone) await pickZone(page, opts.zone)
  if (opts.shared) await page.getByRole('radio', { name: /Shared/ }).click()
  await page.getByRole('button', { name: 'Create job' }).click()
  await expect(page.getByRole('heading', { level: 1, name: opts.name })).toBeVisible()
}

/**
 * The two jobs the list specs sort, filter and search: `beta-digest` (personal, hourly, its prompt
 * says "feedback") and `alpha-report` (shared, monthly).
 */
async function createTwoJobs(page: Page) {
  await createJob(page, { name: 'beta-digest', prompt: 'Digest the beta feedback.', schedule: '0 * * * *' })
  await createJob(page, {
    name: 'alpha-report',
    prompt: 'Report on alpha.',
    schedule: '0 9 1 * *',
    shared: true,
  })
}

async function pickZone(page: Page, zone: string) {
  await page.getByLabel('Time zone').click()
  await page.getByRole('combobox', { name: 'Search time zones' }).fill(zone)
  await page.keyboard.press('Enter')
  await expect(page.getByLabel('Time zone')).toContainText(zone.replace(/_/g, ' '))
}

test('create a job in the form, see it in the list, edit it, pause it, delete it', async ({ page }) => {
  await signUp(page, 'Nina Novak', uniqueEmail('nina'))
  await expect(page.getByText('No jobs yet')).toBeVisible()
  await page.getByRole('link', { name: 'Create your first job' }).click()
  await expect(page).toHaveURL(/\/jobs\/new$/)

  // Presets fill the schedule; the live preview describes it and lists the next five runs.
  await page.getByLabel('Name').fill('Morning Report')
  await page.getByLabel('Prompt').fill('Summarise the overnight alerts.')
  await page.getByRole('radio', { name: 'Weekdays at 07:00' }).click()
  await expect(page.getByLabel('Schedule', { exact: true })).toHaveValue('0 7 * * 1-5')
  await pickZone(page, 'Europe/Berlin')
  const preview = page.getByTestId('schedule-preview')
  await expect(preview.getByTestId('schedule-description')).toHaveText(
    'Every weekday at 07:00 (Europe/Berlin)',
  )
  await expect(preview.locator('tbody tr')).toHaveCount(5)
  await page.getByLabel('Schedule', { exact: true }).fill('61 * * * *')
  await expect(preview.getByTestId('schedule-preview-error')).toContainText('61')
  await page.getByRole('radio', { name: 'Weekdays at 07:00' }).click()

  // A bad name comes back from the server next to the field, and nothing typed is lost.
  await page.getByRole('button', { name: 'Create job' }).click()
  await expect(page.getByText('must be a slug')).toBeVisible()
  await expect(page.getByLabel('Prompt')).toHaveValue('Summarise the overnight alerts.')
  await expect(page.getByLabel('Time zone')).toContainText('Europe/Berlin')
  await page.getByLabel('Name').fill('morning-report')
  await page.getByRole('button', { name: 'Create job' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'morning-report' })).toBeVisible()
  await expect(page).toHaveURL(/\/jobs\/[^/]+$/)
  const jobUrl = page.url()

  // The list shows it with its schedule in words, owner and an enable switch.
  await page.getByRole('link', { name: 'Jobs', exact: true }).first().click()
  const row = page.getByTestId('job-row-morning-report')
  await expect(row).toContainText('Every weekday at 07:00 (Europe/Berlin)')
  await expect(row).toContainText('Nina Novak')
  await expect(row.getByRole('switch', { name: 'Enabled: morning-report' })).toBeChecked()

  // Edit the prompt and the schedule on the job page.
  await row.getByRole('link', { name: 'morning-report' }).click()
  // The page leads with the runs; the edit form is a tab away (and the tab is in the URL).
  await expect(
    page.getByRole('table', { name: 'Runs, newest first' }).or(page.getByText('No runs yet')),
  ).toBeVisible()
  await page.getByRole('tab', { name: 'Definition' }).click()
  await expect(page).toHaveURL(/\?tab=definition$/)
  await page.getByLabel('Prompt').fill('Summarise the overnight alerts and page whoever is on call.')
  await page.getByLabel('Schedule', { exact: true }).fill('30 8 * * 1-5')
  await expect(page.getByTestId('schedule-description')).toHaveText('Every weekday at 08:30 (Europe/Berlin)')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()
  await page.reload()
  await expect(page.getByLabel('Prompt')).toHaveValue(
    'Summarise the overnight alerts and page whoever is on call.',
  )
  await page.getByRole('tab', { name: 'Audit trail' }).click()
  await expect(page.getByTestId('audit-trail')).toContainText('Nina Novak changed schedule, prompt')

  // Pause on the job page; the list shows it paused; resume from the list's switch.
  await page.getByRole('button', { name: 'Pause' }).click()
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible()
  await expect(page.getByTestId('audit-trail')).toContainText('Nina Novak paused the job')
  await page.goto('/jobs?filter=paused')
  const paused = page.getByTestId('job-row-morning-report')
  await expect(paused.getByRole('switch')).not.toBeChecked()
  await expect(paused).toContainText('Paused')
  await page.getByRole('link', { name: 'All', exact: true }).click()
  const row2 = page.getByTestId('job-row-morning-report')
  await row2.getByRole('switch').click()
  await expect(row2.getByRole('switch')).toBeChecked()
  await expect(row2).not.toContainText('Paused')
  await page.goto('/jobs?filter=paused')
  await expect(page.getByText('No jobs match')).toBeVisible()

  // Delete, after confirming.
  await page.goto(jobUrl)
  await page.getByRole('button', { name: 'Delete' }).click()
  const dialog = page.getByRole('alertdialog')
  await expect(dialog).toContainText('Delete “morning-report”?')
  await dialog.getByRole('button', { name: 'Delete job' }).click()
  await expect(page).toHaveURL(/\/jobs$/)
  await expect(page.getByText('Deleted "morning-report"')).toBeVisible()
  await expect(page.getByText('No jobs yet')).toBeVisible()
  await page.goto(jobUrl)
  await expect(page.getByRole('heading', { name: 'This job does not exist' })).toBeVisible()
})

test('search, filters and sorting live in the URL', async ({ page }) => {
  await signUp(page, 'Sam Sorter', uniqueEmail('sam'))
  await createTwoJobs(page)
  await page.goto('/jobs')
  const names = page.locator('tbody tr td:first-child a')
  await expect(names).toHaveText(['alpha-report', 'beta-digest'])
  await page.getByRole('link', { name: /Next run/ }).click()
  await expect(page).toHaveURL(/sort=next/)
  await expect(names).toHaveText(['beta-digest', 'alpha-report'])
  await page.getByRole('link', { name: 'Shared', exact: true }).click()
  await expect(page).toHaveURL(/filter=shared/)
  await expect(names).toHaveText(['alpha-report'])
  await page.getByRole('link', { name: 'All', exact: true }).click()
  await page.getByRole('searchbox', { name: 'Search jobs' }).fill('feedback')
  await expect(page).toHaveURL(/q=feedback/)
  await expect(names).toHaveText(['beta-digest'])
  await page.getByRole('searchbox', { name: 'Search jobs' }).fill('nothing-like-this')
  await expect(page.getByText('No jobs match')).toBeVisible()
})

test('a search or sort chosen while a filter is still loading keeps that filter', async ({ page }) => {
  await signUp(page, 'Flo Fastfingers', uniqueEmail('flo'))
  await createTwoJobs(page)
  const names = page.locator('tbody tr td:first-child a')
  // A slow server: the list under "All" (no filter, search or sort) has not arrived when the
  // person makes their next choice.
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  const isAll = (url: string) =>
    /\/jobs\.data/.test(url) && !['filter', 'q', 'sort'].some((key) => new URL(url).searchParams.has(key))
  await page.route(/\/jobs\.data/, async (route) => {
    if (isAll(route.request().url())) await held
    await route.continue().catch(() => {}) // the next choice's navigation may have cancelled it
  })
  const chooseAllFromShared = async () => {
    await page.goto('/jobs?filter=shared')
    await expect(names).toHaveText(['alpha-report'])
    const allRequested = page.waitForRequest((req) => isAll(req.url()))
    await page.getByRole('link', { name: 'All', exact: true }).click()
    await allRequested
  }

  await chooseAllFromShared()
  await page.getByRole('searchbox', { name: 'Search jobs' }).fill('feedback')
  await expect(page).toHaveURL(/q=feedback/)
  expect(page.url()).not.toMatch(/filter=/)
  await expect(names).toHaveText(['beta-digest'])

  await chooseAllFromShared()
  await page.getByRole('link', { name: /Next run/ }).click()
  await expect(page).toHaveURL(/sort=next/)
  expect(page.url()).not.toMatch(/filter=/)
  await expect(names).toHaveText(['beta-digest', 'alpha-report'])
  release()
})

test('typing on after the first results have come keeps the search box and what was typed', async ({
  page,
}) => {
  await signUp(page, 'Tia Typist', uniqueEmail('tia'))
  await createJob(page, { name: 'beta-digest', prompt: 'Digest the beta feedback.', schedule: '0 * * * *' })
  await createJob(page, { name: 'alpha-report', prompt: 'Report on alpha.', schedule: '0 9 1 * *' })
  await page.goto('/jobs')
  const names = page.locator('tbody tr td:first-child a')
  await expect(names).toHaveText(['alpha-report', 'beta-digest'])
  const search = page.getByRole('searchbox', { name: 'Search jobs' })
  await search.click()
  await page.keyboard.type('feed')
  await expect(page).toHaveURL(/q=feed$/)
  await expect(names).toHaveText(['beta-digest'])
  // The person pauses, sees one result, and types on without clicking the box again.
  await page.keyboard.type('back')
  await expect(search).toHaveValue('feedback')
  await expect(page).toHaveURL(/q=feedback$/)
  await expect(names).toHaveText(['beta-digest'])
  // Clearing the search from its button empties the box too.
  await page.getByRole('link', { name: 'Clear search' }).click()
  await expect(page).toHaveURL(/\/jobs\??$/)
  await expect(search).toHaveValue('')
  await expect(names).toHaveText(['alpha-report', 'beta-digest'])
})

test("a member sees an admin's shared job read-only", async ({ browser }) => {
  const ownerContext = await browser.newContext()
  const owner = await ownerContext.newPage()
  await signUp(owner, 'Olga Owner', uniqueEmail('olga'))
  await createJob(owner, {
    name: 'team-digest',
    prompt: 'Post the team digest.',
    schedule: '0 9 * * 1',
    shared: true,
  })

  const memberContext = await browser.newContext()
  const member = await memberContext.newPage()
  const memberEmail = uniqueEmail('max')
  await signUp(member, 'Max Member', memberEmail)
  await joinOrganisation(owner, member, memberEmail, 'member')

  await member.goto('/jobs')
  const row = member.getByTestId('job-row-team-digest')
  await expect(row).toContainText('Olga Owner')
  await expect(row.getByRole('switch')).toHaveCount(0)
  await expect(member.getByTestId('state-team-digest')).toHaveText('Enabled')

  await row.getByRole('link', { name: 'team-digest' }).click()
  await member.getByRole('tab', { name: 'Definition' }).click()
  await expect(member.getByTestId('read-only-notice')).toBeVisible()
  await expect(member.getByTestId('instructions')).toHaveText('Post the team digest.')
  await expect(member.getByText('Every Monday at 09:00', { exact: false }).first()).toBeVisible()
  for (const name of ['Save changes', 'Pause', 'Delete']) {
    await expect(member.getByRole('button', { name })).toHaveCount(0)
  }
  await expect(member.getByRole('textbox')).toHaveCount(0)
  await ownerContext.close()
  await memberContext.close()
})

test('an admin who rewrites a shared job’s prompt is told first that it will run as them', async ({
  browser,
}) => {
  const ownerContext = await browser.newContext()
  const owner = await ownerContext.newPage()
  await signUp(owner, 'Oona Owner', uniqueEmail('oona'))
  await createJob(owner, {
    name: 'weekly-kpis',
    prompt: 'Collect the KPIs.',
    schedule: '0 8 * * 1',
    shared: true,
  })

  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  const adminEmail = uniqueEmail('ada')
  await signUp(admin, 'Ada Admin', adminEmail)
  await joinOrganisation(owner, admin, adminEmail, 'admin')
  await admin.goto('/jobs')
  await admin.getByRole('link', { name: 'weekly-kpis' }).click()
  await admin.getByRole('tab', { name: 'Definition' }).click()
  await expect(admin.getByTestId('becomes-creator')).toHaveCount(0)
  await admin.getByLabel('Prompt').fill('Collect the KPIs and compare them with last week.')
  await expect(admin.getByTestId('becomes-creator')).toHaveText(
    'Saving new instructions makes you this job’s creator: it will run as you.',
  )
  await admin.getByRole('button', { name: 'Save changes' }).click()
  await expect(admin.getByText('Saved', { exact: true })).toBeVisible()
  await admin.getByRole('tab', { name: 'Runs' }).click()
  await expect(admin.getByRole('definition').filter({ hasText: adminEmail })).toBeVisible()
  await ownerContext.close()
  await adminContext.close()
})

test('a concurrent edit shows the 409 message and keeps the text', async ({ page, context }) => {
  await signUp(page, 'Cleo Clash', uniqueEmail('cleo'))
  await createJob(page, { name: 'clash', prompt: 'The first prompt.', schedule: '0 6 * * *' })
  await page.getByRole('tab', { name: 'Definition' }).click()
  await expect(page).toHaveURL(/\?tab=definition$/)
  const other = await context.newPage()
  await other.goto(page.url())
  await expect(other.getByLabel('Prompt')).toHaveValue('The first prompt.')

  await page.getByLabel('Prompt').fill('Their edit, saved first.')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Saved', { exact: true })).toBeVisible()

  await other.getByLabel('Prompt').fill('My edit, made on an old version.')
  await other.getByRole('button', { name: 'Save changes' }).click()
  await expect(other.getByRole('alert').filter({ hasText: 'Someone else changed' })).toHaveText(
    /Someone else changed this job while you were editing\. Your text is kept below; reload to see their version, then re-apply\./,
  )
  await expect(other.getByLabel('Prompt')).toHaveValue('My edit, made on an old version.')

  await other.getByRole('button', { name: /Load their version/ }).click()
  await expect(other.getByLabel('Prompt')).toHaveValue('Their edit, saved first.')
})

test('the time zone saved in the profile is the new-job default', async ({ page }) => {
  await signUp(page, 'Tomo Tanaka', uniqueEmail('tomo'))
  await page.goto('/settings/profile')
  await pickZone(page, 'Asia/Tokyo')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Time zone saved')).toBeVisible()
  await page.goto('/jobs/new')
  await expect(page.getByLabel('Time zone')).toContainText('Asia/Tokyo')
  await expect(page.getByTestId('schedule-description')).toHaveText('Every day at 09:00 (Asia/Tokyo)')
})
