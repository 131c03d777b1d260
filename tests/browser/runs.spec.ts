import { expect, type Page } from '@playwright/test'
import { test } from './agent-server.ts'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'
import { gapAfterText, linesOf, VIEWPORTS } from './look.ts'

const makeJob = (page: Page, name: string, instructions: string) =>
  createJobOverApi(page, { name, schedule: '0 7 1 1 *', instructions })

async function runNow(page: Page, baseURL: string, jobId: string): Promise<string> {
  const res = await page.request.post(`/_agent-native/jobs/${jobId}/run`, { headers: { origin: baseURL } })
  expect(res.status()).toBe(202)
  return (await res.json()).run.id
}

test('a run has its own page: a deep link shows the header and the transcript with tool steps', async ({
  page,
  baseURL,
  fake,
}) => {
  await signUp(page, 'Dana Deep', uniqueEmail('dana'))
  const token = `DEEP-${Date.now()}`
  fake.replyWhen(
    token,
    {
      content: [{ type: 'tool_use', name: 'clock', input: {} }],
      usage: { input_tokens: 100, output_tokens: 20 },
      stopReason: 'tool_use',
    },
    { text: 'It is **time**.', usage: { input_tokens: 50, output_tokens: 10 } },
  )
  const job = await makeJob(page, 'deep-link', `Check the clock (${token}).`)
  const runId = await runNow(page, baseURL!, job.id)
  await expect
    .poll(async () => (await (await page.request.get(`/_agent-native/runs/${runId}`)).json()).run.status)
    .toBe('success')

  await page.goto(`/jobs/${job.id}/runs/${runId}`)
  await expect(page).toHaveTitle('Run of deep-link · Clockwork')
  const header = page.getByTestId('run-header')
  await expect(header).toContainText('anthropic:claude-sonnet-5-5')
  await expect(header).toContainText('150')
  await expect(header).toContainText('30')
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Succeeded')
  const transcript = page.getByTestId('transcript')
  await expect(transcript).toContainText(`Check the clock (${token}).`)
  await expect(transcript.locator('strong')).toHaveText('time')
  await expect(transcript.getByTestId('tool-step').filter({ hasText: 'Checked the time' })).toBeVisible()

  // At phone size the run page fits the screen: nothing reaches past its right edge.
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`/jobs/${job.id}/runs/${runId}`)
  await expect(page.getByTestId('run-header')).toBeVisible()
  const overflow = await page.evaluate(() => {
    const doc = document.documentElement
    return Math.max(doc.scrollWidth, document.body.scrollWidth) - doc.clientWidth
  })
  expect(overflow, 'the run page scrolls sideways at 390 px').toBe(0)
  await page.setViewportSize({ width: 1280, height: 800 })

  // A run id under another job's URL is not found.
  const other = await makeJob(page, 'other-job', 'Nothing.')
  const res = await page.goto(`/jobs/${other.id}/runs/${runId}`)
  expect(res?.status()).toBe(404)
})

test('cancel a running run from its page, then retry it', async ({ page, baseURL, fake }) => {
  await signUp(page, 'Cato Cancel', uniqueEmail('cato'))
  const token = `HOLD-${Date.now()}`
  fake.replyWhen(token, { hang: true })
  const job = await makeJob(page, 'held-open', `Wait (${token}).`)
  const runId = await runNow(page, baseURL!, job.id)
  const ours = () => fake.requests.find((r) => JSON.stringify(r.body).includes(token))
  await expect.poll(() => Boolean(ours())).toBe(true)

  await page.goto(`/jobs/${job.id}`)
  const row = page.getByTestId('run-row').first()
  await expect(row).toHaveAttribute('data-status', 'running')
  await row.getByRole('link', { name: /^Transcript of the running run/ }).click()
  await expect(page).toHaveURL(new RegExp(`/runs/${runId}$`))
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Running')
  await page.getByRole('button', { name: 'Cancel run' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Cancelled')
  await expect(page.getByRole('alert').filter({ hasText: 'Cancelled by Cato Cancel' })).toBeVisible()
  // The cancel reached the instance running it: the model call was aborted.
  await expect.poll(() => ours()?.aborted).toBe(true)

  await page.getByRole('button', { name: 'Retry' }).click()
  await expect(page).not.toHaveURL(new RegExp(`/runs/${runId}$`))
  await expect(page).toHaveURL(new RegExp(`/jobs/${job.id}/runs/run_`))
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Succeeded', { timeout: 20_000 })
  await expect(page.getByText(/Retry · attempt 1/)).toBeVisible()

  // The job's history lists both, and the filter narrows it to the cancelled one.
  await page.getByRole('link', { name: 'held-open' }).click()
  await expect(page.getByTestId('run-row')).toHaveCount(2)
  await page.getByLabel('Show runs').selectOption('cancelled')
  await expect(page.getByTestId('run-row')).toHaveCount(1)
  await expect(page.getByTestId('run-row')).toHaveAttribute('data-status', 'cancelled')
})

test('a run’s amounts line up on the right in the history; its model id stays on one line, at the transcript’s inset', async ({
  page,
  baseURL,
  fake,
}) => {
  await signUp(page, 'Amy Amounts', uniqueEmail('amy'))
  const token = `AMOUNTS-${Date.now()}`
  fake.replyWhen(token, { text: 'Counted.', usage: { input_tokens: 1200, output_tokens: 34 } })
  const job = await makeJob(page, 'amounts', `Count (${token}).`)
  const runId = await runNow(page, baseURL!, job.id)
  await expect
    .poll(async () => (await (await page.request.get(`/_agent-native/runs/${runId}`)).json()).run.status)
    .toBe('success')

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport)
    await page.goto(`/jobs/${job.id}`)
    const table = page.getByRole('table', { name: 'Runs, newest first' })
    const row = table.getByTestId('run-row')
    await expect(row).toHaveCount(1)
    // Duration, tokens (desktop only: a phone drops them) and cost: header and amount flush right.
    const columns = size === 'desktop' ? ['Duration', 'Tokens', 'Cost'] : ['Duration', 'Cost']
    const headers = await table.locator('th').allTextContents()
    for (const column of columns) {
      const index = headers.indexOf(column)
      expect(index, `${column} is a column at ${size}`).toBeGreaterThan(-1)
      expect(await gapAfterText(table.locator('th').nth(index)), `${column} header, ${size}`).toBe(0)
      expect(await gapAfterText(row.locator('td').nth(index)), `${column} amount, ${size}`).toBe(0)
    }

    await page.goto(`/jobs/${job.id}/runs/${runId}`)
    const model = page.getByTestId('run-header').locator('dd').first()
    await expect(model).toHaveText('anthropic:claude-sonnet-5-5')
    expect(await linesOf(model), `the model id breaks across lines at ${size}`).toBe(1)
    // The header's facts and the transcript's heading start at one inset, as stacked cards do.
    const factsLeft = (await page.getByTestId('run-header').locator('dt').first().boundingBox())!.x
    const transcriptLeft = (await page.getByRole('heading', { name: 'Transcript' }).boundingBox())!.x
    expect(factsLeft, `the header's inset differs from the transcript's at ${size}`).toBe(transcriptLeft)
  }
})
