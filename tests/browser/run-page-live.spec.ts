/**
 * A run's own page while it runs: its duration counts up ("… so far"), as its row in the job's
 * run history does, instead of a dash until it ends. The model never answers, so it stays running.
 */
import { randomBytes } from 'node:crypto'
import { expect } from '@playwright/test'
import { test } from './agent-server.ts'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'

// Sign-up and a run through the server's scheduler on a busy machine.
test.describe.configure({ timeout: 120_000 })

test('a running run’s page shows how long it has been going', async ({ page, baseURL, fake }) => {
  const tag = randomBytes(3).toString('hex')
  fake.replyWhen(tag, { hang: true })
  await signUp(page, 'Dora Duration', uniqueEmail('dora'))
  const headers = { origin: baseURL! }
  const job = await createJobOverApi(page, {
    name: `slow-${tag}`,
    schedule: '0 7 1 1 *',
    instructions: `Take your time (${tag}).`,
  })
  const started = await page.request.post(`/_agent-native/jobs/${job.id}/run`, { headers })
  expect(started.status()).toBe(202)
  const runId = (await started.json()).run.id as string

  await page.goto(`/jobs/${job.id}/runs/${runId}`)
  const header = page.getByTestId('run-header')
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Running', { timeout: 30_000 })
  const duration = header
    .locator('div')
    .filter({ has: page.getByText('Duration', { exact: true }) })
    .locator('dd')
  await expect(duration).toHaveText(/ so far$/)
  // It counts: one reading, then a later one.
  const first = await duration.textContent()
  await expect(duration).not.toHaveText(first!)

  const cancelled = await page.request.post(`/_agent-native/runs/${runId}/cancel`, { headers })
  expect(cancelled.status()).toBe(200)
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Cancelled', { timeout: 30_000 })
  await expect(duration).not.toHaveText(/so far/)
})
