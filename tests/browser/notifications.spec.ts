/**
 * The Notifications page in words a newcomer reads and in colours one can read: an alert's badge
 * names its kind ("Failing", not the stored "failing" or "deadman"), a first failure is "failed",
 * not "failed 1 times in a row", and every text keeps WCAG AA contrast in both themes, before and
 * after the alert is marked read.
 */
import { randomBytes } from 'node:crypto'
import { expect, test, type Page } from '@playwright/test'
import { createJobOverApi, runToEnd, signUp, uniqueEmail } from './helpers.ts'
import { textsBelowAA, useTheme } from './look.ts'
import { ownerAndMember } from './org.ts'

// Sign-up and a failed run on a busy machine take more than the default 60 s together.
test.describe.configure({ timeout: 120_000 })

/** A new person whose job failed once with `alertAfterFailures: 1`; answers the job's name. */
async function oneFailureAlert(page: Page, origin: string): Promise<string> {
  await signUp(page, 'Olga Alerts', uniqueEmail('olga'))
  const tag = randomBytes(3).toString('hex')
  const refused = await fetch(`${process.env.E2E_FAKE_ANTHROPIC_URL}/__control/replies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      match: tag,
      replies: [{ status: 400, errorType: 'invalid_request_error', message: 'the model says no' }],
    }),
  })
  expect(refused.status).toBe(204)
  const name = `fragile-${tag}`
  const job = await createJobOverApi(page, {
    name,
    schedule: '0 7 1 1 *',
    instructions: `Fail (${tag}).`,
    alertAfterFailures: 1,
  })
  expect((await runToEnd(page, origin, job.id)).status).toBe('error')
  // The alert is raised after the run's end is written: wait until the page has it.
  await expect(async () => {
    await page.goto('/notifications')
    await expect(page.getByText(`${name} failed`, { exact: true })).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 30_000 })
  return name
}

test('an alert says what happened in plain words', async ({ page, baseURL }) => {
  const name = await oneFailureAlert(page, baseURL!)
  await page.goto('/notifications')
  const alert = page.getByRole('listitem').filter({ hasText: name })
  await expect(alert.getByText(`${name} failed`, { exact: true })).toBeVisible()
  await expect(alert.getByText('Failing', { exact: true })).toBeVisible()
})

test('the empty page names what will show up without jargon', async ({ page }) => {
  await signUp(page, 'Emil Empty', uniqueEmail('emil'))
  await page.goto('/notifications')
  await expect(page.getByText('Nothing yet')).toBeVisible()
  await expect(page.getByText(/has not succeeded for longer than you\s+expect/)).toBeVisible()
  await expect(page.getByText(/dead-man/)).toHaveCount(0)
})

for (const theme of ['light', 'dark'] as const) {
  test(`unread and read alerts keep AA contrast (${theme})`, async ({ page, baseURL }) => {
    const name = await oneFailureAlert(page, baseURL!)
    await useTheme(page, theme)
    await page.goto('/notifications')
    await expect(page.getByRole('link', { name: 'Open the job' })).toBeVisible()
    expect(await textsBelowAA(page)).toEqual([])

    await page.getByRole('button', { name: 'Mark all read' }).click()
    await expect(page.getByRole('button', { name: 'Mark all read' })).toHaveCount(0)
    await expect(page.getByRole('listitem').filter({ hasText: name })).toBeVisible()
    expect(await textsBelowAA(page)).toEqual([])
  })
}

// The browser tests' server has no SMTP_URL. Only someone who can take the setting to whoever runs
// the server (an admin or owner) is told its name; a member is told where alerts reach them.
test('email being off names the server setting to admins only; a member learns where to look', async ({
  browser,
}) => {
  const { owner, member } = await ownerAndMember(browser)

  for (const page of [owner, member]) {
    await page.goto('/notifications')
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible()
  }
  await expect(owner.getByText(/Email is off on this server \(no SMTP_URL\)/)).toBeVisible()
  await expect(member.getByText('SMTP_URL')).toHaveCount(0)
  await expect(member.getByText(/SMTP/)).toHaveCount(0)
  await expect(
    member.getByText(/the bell at the top of every page counts the ones you have not read/),
  ).toBeVisible()

  // Settings → Delivery says what email being off means to both, and the setting to the owner only.
  for (const page of [owner, member]) await page.goto('/settings/delivery')
  await expect(owner.getByText(/this server has no SMTP_URL/)).toBeVisible()
  await expect(member.getByText(/Email is off on this server\. Alerts show in the app only/)).toBeVisible()
  await expect(member.getByText(/SMTP/)).toHaveCount(0)
  await owner.context().close()
  await member.context().close()
})
