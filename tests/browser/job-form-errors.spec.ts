/**
 * The new-job form shows every field's problem from one submit (issue 26 item 6): a bad name, a
 * bad retry count and a bad timeout come back together, each next to its own field, and nothing
 * typed is lost.
 */
import { expect, test, type Page } from '@playwright/test'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'

test('one submit shows each bad field’s message next to it', async ({ page }) => {
  await signUp(page, 'Ewa Errors', uniqueEmail('ewa'))
  await page.goto('/jobs/new')
  await page.getByLabel('Name').fill('Morning Report')
  await page.getByLabel('Prompt').fill('Summarise the overnight alerts.')
  await page.getByRole('radio', { name: 'Weekdays at 07:00' }).click()
  await page.getByText('Advanced').click()
  // The browser's own range check would stop the submit first; the server's answer is under test.
  await page.locator('form[action="/jobs/new"]').evaluate((form: HTMLFormElement) => (form.noValidate = true))
  await page.getByLabel('Retries').fill('9')
  await page.getByLabel('Timeout (minutes)').fill('0')
  await page.getByRole('button', { name: 'Create job' }).click()

  await expect(page.getByText('must be a slug')).toBeVisible()
  const retries = page.getByLabel('Retries')
  await expect(retries).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('Timeout (minutes)')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true')
  // No summary of them above the form: each is next to its field.
  await expect(page.getByRole('alert').filter({ hasText: 'retries:' })).toHaveCount(0)
  await expect(page.getByLabel('Prompt')).toHaveValue('Summarise the overnight alerts.')
})

test('a refused submit brings its first bad field into view and focus, on the new-job form and the editor', async ({
  page,
}) => {
  await signUp(page, 'Finn Focus', uniqueEmail('finn'))
  const { id: jobId } = await createJobOverApi(page, {
    name: 'taken-name',
    schedule: '0 7 * * *',
    instructions: 'Go.',
  })

  await page.goto('/jobs/new')
  await page.getByLabel('Name').fill('taken-name')
  await page.getByLabel('Prompt').fill('Again.')
  await page.getByText('Advanced').click()
  // Pressed from the bottom of the form, a screen below the name.
  const create = page.getByRole('button', { name: 'Create job' })
  await create.scrollIntoViewIfNeeded()
  await expect(page.getByLabel('Name')).not.toBeInViewport()
  await create.click()
  const name = page.getByLabel('Name')
  await expect(name).toHaveAttribute('aria-invalid', 'true')
  await expect(name).toBeFocused()
  await expect(name).toBeInViewport()

  await page.goto(`/jobs/${jobId}?tab=definition`)
  const prompt = page.getByLabel('Prompt')
  await prompt.fill('')
  await page
    .locator('form')
    .filter({ has: prompt })
    .evaluate((form: HTMLFormElement) => (form.noValidate = true))
  await page.getByText('Advanced').click()
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
  await expect(prompt).not.toBeInViewport()
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(prompt).toHaveAttribute('aria-invalid', 'true')
  await expect(prompt).toBeFocused()
  await expect(prompt).toBeInViewport()
})

/** A new person's new-job form, filled in with a schedule nobody can read; its schedule box. */
async function newJobEveryThirdFortnight(page: Page, person: string) {
  await signUp(page, person, uniqueEmail(person.split(' ')[0]!.toLowerCase()))
  await page.goto('/jobs/new')
  await page.getByLabel('Name').fill('fortnightly')
  await page.getByLabel('Prompt').fill('Every third fortnight.')
  const schedule = page.getByLabel('Schedule', { exact: true })
  await schedule.fill('every 3 fortnights')
  return schedule
}

test('a schedule’s problem reads without a field prefix, and goes once the schedule is changed', async ({
  page,
}) => {
  const schedule = await newJobEveryThirdFortnight(page, 'Sol Schedule')
  const problem = page.getByTestId('schedule-preview-error')
  await expect(problem).toContainText('must be an interval like 90m')
  // The label above the box already says "Schedule", as a field's own message leaves it out.
  await expect(problem).not.toContainText('schedule:')
  const answered = page.waitForResponse((r) => r.request().method() === 'POST')
  await page.getByRole('button', { name: 'Create job' }).click()
  await answered
  await expect(schedule).toHaveAttribute('aria-invalid', 'true')
  await expect(page).toHaveURL(/\/jobs\/new$/)

  // Changed to a schedule the preview accepts: the refused one's message is gone with it.
  await schedule.fill('every 2h')
  await expect(page.getByTestId('schedule-description')).toBeVisible()
  await expect(page.getByText('must be an interval')).toHaveCount(0)
  await expect(schedule).toHaveAttribute('aria-invalid', 'false')
})

test('a refusal that arrives after the schedule was changed is not pinned on the new text', async ({
  page,
}) => {
  const schedule = await newJobEveryThirdFortnight(page, 'Lou Late')
  await expect(page.getByTestId('schedule-preview-error')).toContainText('must be an interval')
  // The server's answer is held until the text has changed, as on a slow connection.
  let release!: () => void
  const changed = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/jobs/new.data*', async (route) => {
    await changed
    await route.continue()
  })
  const answered = page.waitForResponse((r) => r.request().method() === 'POST')
  await page.getByRole('button', { name: 'Create job' }).click()
  await schedule.fill('every 2h')
  await expect(page.getByTestId('schedule-description')).toBeVisible()
  release()
  await answered
  // The refusal was about "every 3 fortnights"; the box holds a schedule the preview accepts.
  await expect(page.getByRole('button', { name: 'Create job' })).toBeEnabled()
  await expect(page.getByText('must be an interval')).toHaveCount(0)
  await expect(schedule).toHaveAttribute('aria-invalid', 'false')
})
