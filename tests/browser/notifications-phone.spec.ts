import { randomBytes } from 'node:crypto'
import { expect, test } from '@playwright/test'
import { createJobOverApi, runToEnd, signUp, uniqueEmail } from './helpers.ts'
import { expectWhole } from './look.ts'

// Sign-up and a failed run on a busy machine take more than the default 60 s together.
test.describe.configure({ timeout: 120_000 })
test.use({ viewport: { width: 390, height: 844 } })

test('Notifications fits 390 px with the longest job name and a long error', async ({ page, baseURL }) => {
  await signUp(page, 'Nia Notices', uniqueEmail('nia'))
  const tag = randomBytes(3).toString('hex')
  // 63 characters, the most a job name may have, with no dash to break at.
  const name = `n${tag}${'x'.repeat(56)}`
  // The model refuses the run with an error quoting one long unbroken token.
  const refused = await fetch(`${process.env.E2E_FAKE_ANTHROPIC_URL}/__control/replies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      match: tag,
      replies: [{ status: 400, errorType: 'invalid_request_error', message: `bad-${'token'.repeat(30)}` }],
    }),
  })
  expect(refused.status).toBe(204)
  const job = await createJobOverApi(page, {
    name,
    schedule: '0 7 1 1 *',
    instructions: `Fail (${tag}).`,
    alertAfterFailures: 1,
  })
  const run = await runToEnd(page, baseURL!, job.id)
  expect(run.status).toBe('error')

  // The alert is raised after the run's end is written, so the page is read again until it shows.
  const title = page.getByText(`${name} failed`, { exact: true })
  await expect(async () => {
    await page.goto('/notifications')
    await expect(title).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 30_000 })
  await expectWhole(title)
  await expectWhole(page.getByText(/^The last run /))
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBe(0)
})
