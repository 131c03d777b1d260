/**
 * A job whose agent is the real Claude Code CLI, run from a real server against the fake model:
 * its run page shows the harness's Bash step with the command and, folded under it, its output.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test as base } from '@playwright/test'
import { startFakeAnthropic, toolUse, type FakeAnthropic } from '../support/fake-anthropic.ts'
import { spawnServer, type SpawnedServer } from '../support/spawn-server.ts'
import { createJobOverApi, runToEnd, signUp, uniqueEmail } from './helpers.ts'

const test = base.extend<object, { fake: FakeAnthropic; server: SpawnedServer }>({
  fake: [
    async ({}, use) => {
      const fake = await startFakeAnthropic({ fallback: { text: 'Done.' } })
      await use(fake)
      await fake.close()
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ fake }, use) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-e2e-harness-'))
      chmodSync(dir, 0o711)
      const server = await spawnServer({
        ANTHROPIC_API_KEY: 'sk-browser-harness',
        ANTHROPIC_BASE_URL: fake.baseURL,
        ENVIRONMENTS_DIR: path.join(dir, 'environments'),
      })
      await use(server)
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
})

test('a Claude Code run shows its Bash step with the output on the run page', async ({
  page,
  baseURL,
  fake,
}) => {
  test.setTimeout(120_000)
  await signUp(page, 'Hana Harness', uniqueEmail('hana'))
  const headers = { origin: baseURL! }
  const env = await page.request.put('/_agent-native/resources/personal/environments/site.md', {
    headers: { ...headers, 'content-type': 'text/markdown' },
    data: '---\nprovider: local\n---\nThe site.\n',
  })
  expect(env.status()).toBe(201)
  const token = `HARNESS-${Date.now()}`
  fake.replyWhen(
    token,
    toolUse('Bash', { command: 'echo built-by-claude > index.html && cat index.html', description: 'build' }),
    { text: 'Built **index.html**.' },
  )
  const job = await createJobOverApi(page, {
    name: 'build-site',
    schedule: '0 7 1 1 *',
    instructions: `Build the site (${token}).`,
    environment: 'site',
    harness: 'claude-code',
  })
  const run = await runToEnd(page, headers.origin, job.id, 90_000)
  expect(run.status, run.error ?? '').toBe('success')
  const runId = run.id

  await page.goto(`/jobs/${job.id}/runs/${runId}`)
  await expect(page.getByTestId('run-header')).toContainText('claude-code')
  const transcript = page.getByTestId('transcript')
  const step = transcript.getByTestId('tool-step').filter({ hasText: 'Ran echo built-by-claude' })
  await expect(step).toBeVisible()
  await step.getByText('Details').click()
  await expect(step.locator('pre')).toHaveText('built-by-claude')
  await expect(transcript.locator('strong')).toHaveText('index.html')
})

test('run_harness in chat: the approval card appears, and the command runs once approved', async ({
  page,
  baseURL,
  fake,
}) => {
  test.setTimeout(120_000)
  await signUp(page, 'Aki Approver', uniqueEmail('aki'))
  const env = await page.request.put('/_agent-native/resources/personal/environments/careful.md', {
    headers: { origin: baseURL!, 'content-type': 'text/markdown' },
    data: '---\nprovider: local\npolicy:\n  commands:\n    ask: ["touch *"]\n---\nAsk first.\n',
  })
  expect(env.status()).toBe(201)
  // Two tokens, neither inside the other: the chat's requests and the CLI's each get their own replies.
  const token = `OUTER-${Date.now()}`
  const inner = `INNER-${Date.now()}`
  fake.replyWhen(
    token,
    toolUse('run_harness', { harness: 'claude-code', environment: 'careful', prompt: `Make it (${inner})` }),
    { text: 'The harness is done.' },
  )
  fake.replyWhen(
    inner,
    toolUse('Bash', { command: 'touch approved.txt && echo touched-it', description: 'touch' }),
    { text: 'Touched.' },
  )
  await page.goto('/jobs')
  const toggle = page.getByRole('button', { name: 'Ask the agent' })
  await expect(toggle).toHaveAttribute('data-ready', 'true')
  await toggle.click()
  const panel = page.getByRole('complementary', { name: 'Agent chat' })
  const input = panel.getByLabel('Message the agent')
  await input.fill(`Make the file (${token})`)
  await input.press('Enter')

  const card = panel.getByTestId('tool-approval')
  await expect(card).toContainText('touch approved.txt && echo touched-it', { timeout: 60_000 })
  await card.getByRole('button', { name: 'Run once' }).click()
  const harness = panel.getByTestId('harness-step')
  await expect(harness.getByTestId('tool-step').filter({ hasText: 'Ran touch approved.txt' })).toBeVisible({
    timeout: 60_000,
  })
  await expect(harness).toContainText('claude-code in careful finished')
  await expect(panel.getByText('The harness is done.')).toBeVisible()
})
