import { expect, type Page } from '@playwright/test'
import { test } from './agent-server.ts'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'

async function runJob(page: Page, baseURL: string, name: string, instructions: string) {
  const job = await createJobOverApi(page, { name, schedule: '0 7 1 1 *', instructions, enabled: false })
  const run = await page.request.post(`/_agent-native/jobs/${job.id}/run`, { headers: { origin: baseURL } })
  expect(run.status()).toBe(202)
  const runId = (await run.json()).run.id
  await expect
    .poll(async () => (await (await page.request.get(`/_agent-native/runs/${runId}`)).json()).run.status)
    .toBe('success')
}

test('Settings → Usage charts cost per day for runs and chat, lists jobs and people, and sets the monthly budget', async ({
  page,
  baseURL,
  fake,
}) => {
  // A sign-up, a run and four page loads: give a busy machine time.
  test.slow()
  await signUp(page, 'Uma Usage', uniqueEmail('uma'))
  const token = `USAGE-${Date.now()}`
  // 200k in + 20k out on claude-sonnet-5-5, the default: $0.40 + $0.20 = $0.60.
  fake.replyWhen(token, { text: 'Counted.', usage: { input_tokens: 200_000, output_tokens: 20_000 } })
  await runJob(page, baseURL!, 'usage-counter', `Count things (${token}).`)
  // One workspace file of 2,000 bytes.
  const note = await page.request.put('/_agent-native/resources/personal/notes.md', {
    headers: { origin: baseURL!, 'content-type': 'text/markdown' },
    data: `${'n'.repeat(1999)}\n`,
  })
  expect(note.status()).toBe(201)

  await page.goto('/settings/usage')
  // The organisation's limits, each a meter: the one job stored, its run on the deployment's key.
  await expect(page.getByRole('meter', { name: 'Jobs, paused ones included' })).toHaveAttribute(
    'aria-valuenow',
    '1',
  )
  await expect(
    page.getByRole('meter', { name: "Runs on the deployment's key, last 24 hours" }),
  ).toHaveAttribute('aria-valuenow', '1')
  await expect(
    page.getByRole('meter', { name: "Chat turns on the deployment's key, last 24 hours" }),
  ).toHaveAttribute('aria-valuenow', '0')
  // No environment yet: nothing of the organisation's disk, and the figures read as sizes.
  const disk = page.getByRole('meter', { name: "Disk of the organisation's environments" })
  await expect(disk).toHaveAttribute('aria-valuenow', '0')
  await expect(disk).toHaveAttribute('aria-valuetext', '0 B of 10.7 GB')
  // The workspace file, counted and measured against the defaults (5,000 files, 256 MiB).
  await expect(page.getByRole('meter', { name: 'Workspace files, personal and shared' })).toHaveAttribute(
    'aria-valuenow',
    '1',
  )
  await expect(page.getByRole('meter', { name: 'Storage of the workspace files' })).toHaveAttribute(
    'aria-valuetext',
    '2.0 KB of 268.4 MB',
  )
  const chat = page.getByRole('heading', { name: 'Chat', exact: true }).locator('..')
  await expect(chat).toContainText('No chat turns in this period.')
  // A chat turn on the deployment's key: 100k in + 10k out on the default model, $0.20 + $0.10 = $0.30. The counts are
  // exact, so other organisations' turns (other tests chat at the same time) are not in them.
  fake.replyWhen(`chat ${token}`, {
    text: 'Chatted.',
    usage: { input_tokens: 100_000, output_tokens: 10_000 },
  })
  const turn = await page.request.post('/_agent-native/agent/chat', {
    headers: { origin: baseURL! },
    data: { message: { id: `m-${token}`, role: 'user', parts: [{ type: 'text', text: `chat ${token}` }] } },
  })
  expect(turn.status()).toBe(200)
  await page.reload()
  await expect(chat).toContainText('1 turn in the last 30 days, on every key: $0.30')
  const chatTables = page
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: 'Turns' }) })
  await expect(chatTables.filter({ hasText: 'Uma Usage' })).toContainText('$0.30')
  await expect(chatTables.filter({ hasText: "The deployment's key" })).toContainText('100,000')
  // Chat's own chart, per day like runs': today holds the turn, the other days none.
  const chatChart = page.getByRole('figure', { name: /Chat cost per day, last 30 days: \$0\.30/ })
  await expect(chatChart).toBeVisible()
  const chatBars = chatChart.getByRole('list', { name: 'Chat cost per day' }).getByRole('listitem')
  await expect(chatBars).toHaveCount(30)
  await expect(chatBars.last()).toHaveAccessibleName(/: \$0\.30, 1 turns$/)
  await expect(chatBars.first()).toHaveAccessibleName(/: \$0, 0 turns$/)
  // Runs' figures below stay runs' alone.
  const chart = page.getByRole('figure', { name: /Cost per day, last 30 days: \$0\.60/ })
  await expect(chart).toBeVisible()
  const bars = chart.getByRole('list', { name: 'Cost per day' }).getByRole('listitem')
  await expect(bars).toHaveCount(30)
  // Today is the last bar, the only one with a cost; keyboard focus reads it out.
  const today = bars.last()
  await expect(today).toHaveAccessibleName(/: \$0\.60, 1 runs$/)
  expect(Number(await today.locator('rect[data-value]').getAttribute('data-value'))).toBeCloseTo(0.6)
  expect(Number(await bars.first().locator('rect[data-value]').getAttribute('data-value'))).toBe(0)
  await today.focus()
  await expect(chart.locator('[aria-live]')).toContainText('$0.60 · 1 runs')

  await chart.getByRole('button', { name: 'Tokens' }).click()
  await expect(page.getByRole('figure', { name: /Tokens per day, last 30 days: 220K/ })).toBeVisible()

  const perJob = page.getByRole('table').filter({ hasText: 'usage-counter' })
  await expect(perJob).toContainText('200,000')
  await expect(perJob).toContainText('$0.60')
  const runTables = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Runs' }) })
  await expect(runTables.filter({ hasText: 'Uma Usage' })).toContainText('$0.60')

  await page.getByRole('link', { name: '7 days' }).click()
  // The metric picked stays picked across periods.
  const week = page.getByRole('figure', { name: /Tokens per day, last 7 days: 220K/ })
  await expect(week.getByRole('list', { name: 'Tokens per day' }).getByRole('listitem')).toHaveCount(7)

  const budget = page.getByLabel('Budget (USD per month)')
  await budget.fill('-3')
  await page.getByRole('button', { name: 'Save budget' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'more than 0' })).toBeVisible()
  await budget.fill('25')
  await page.getByRole('button', { name: 'Save budget' }).click()
  await expect(page.getByText('of $25.00')).toBeVisible()
})
