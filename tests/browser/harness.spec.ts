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
import { signUp, uniqueEmail } from './helpers.ts'

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
  const created = await page.request.post('/_agent-native/jobs', {
    headers,
    data: {
      name: 'build-site',
      schedule: '0 7 1 1 *',
      instructions: `Build the site (${token}).`,
      environment: 'site',
      harness: 'claude-code',
    },
  })
  expect(created.status()).toBe(201)
  const job = (await created.json()).job as { id: string }
  const started = await page.request.post(`/_agent-native/jobs/${job.id}/run`, { headers })
  expect(started.status()).toBe(202)
  const runId = (await started.json()).run.id as string
  await expect
    .poll(async () => (await (await page.request.get(`/_agent-native/runs/${runId}`)).json()).run.status, {
      timeout: 90_000,
    })
    .toBe('success')

  await page.goto(`/jobs/${job.id}/runs/${runId}`)
  await expect(page.getByTestId('run-header')).toContainText('claude-code')
  const transcript = page.getByTestId('transcript')
  const step = transcript.getByTestId('tool-step').filter({ hasText: 'Ran echo built-by-claude' })
  await expect(step).toBeVisible()
  await step.getByText('Details').click()
  await expect(step.locator('pre')).toHaveText('built-by-claude')
  await expect(transcript.locator('strong')).toHaveText('index.html')
})
