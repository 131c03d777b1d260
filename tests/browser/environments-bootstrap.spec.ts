import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect as baseExpect, test as base } from '@playwright/test'
import { spawnServer, type SpawnedServer } from '../support/spawn-server.ts'
import { signUp, uniqueEmail } from './helpers.ts'
import { expectWhole, VIEWPORTS } from './look.ts'

/**
 * The environment page during a slow bootstrap: its Build panel shows the running step (command,
 * ticking time, output so far) while setup runs, then Ready with the steps folded away. A setup
 * step waits on a gate file the test creates, so the running state is there for certain.
 */
const test = base.extend<object, { server: SpawnedServer; environments: string }>({
  environments: [
    async ({}, use) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-e2e-bootstrap-'))
      chmodSync(dir, 0o711) // the sandbox uid must be able to enter it
      await use(path.join(dir, 'environments'))
      rmSync(dir, { recursive: true, force: true })
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ environments }, use) => {
      const server = await spawnServer({ ENVIRONMENTS_DIR: environments })
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
})

// Sign-up, a sandboxed setup and page loads on a busy machine.
test.describe.configure({ timeout: 180_000 })
const expect = baseExpect.configure({ timeout: 30_000 })

const DEFINITION = [
  '---',
  'setup:',
  `  - 'echo "fetched-$((6*7))"'`,
  `  - 'echo "waiting-$((6*7))"; until [ -e .gate ]; do sleep 0.1; done'`,
  '---',
  'A slow build.',
].join('\n')

test('the Build panel follows a slow bootstrap live, then shows it Ready', async ({
  page,
  baseURL,
  environments,
}) => {
  await signUp(page, 'Bo Builder', uniqueEmail('bo'))
  const headers = { origin: baseURL! }
  const saved = await page.request.put('/_agent-native/resources/personal/environments/slow-build.md', {
    headers: { ...headers, 'content-type': 'text/plain' },
    data: DEFINITION,
  })
  expect(saved.status()).toBe(201)

  // A command starts the first build, and answers only once it is done.
  const command = page.request.post('/_agent-native/environments/slow-build/commands', {
    headers,
    data: { command: 'cat AGENTS.md' },
    timeout: 170_000,
  })
  await expect
    .poll(async () => {
      const res = await page.request.get('/_agent-native/environments/slow-build/bootstrap?scope=personal')
      return (await res.json()).bootstrap?.steps?.[1]?.status ?? null
    })
    .toBe('running')

  await page.goto('/environments/slow-build?scope=personal')
  const panel = page.getByRole('region', { name: 'Build' })
  await expect(panel.getByText('Building', { exact: true })).toBeVisible()
  await expect(panel.getByRole('status')).toContainText('Running setup')
  const done = panel.locator('[data-testid="bootstrap-step"][data-status="ok"]')
  await expect(done).toContainText('echo "fetched-$((6*7))"')
  const running = panel.locator('[data-testid="bootstrap-step"][data-status="running"]')
  await expect(running).toContainText('until [ -e .gate ]')
  // Its output so far, scrollable from the keyboard; its time ticks on.
  const tail = running.getByTestId('bootstrap-tail')
  await expect(tail).toHaveText(/waiting-42/)
  await tail.focus()
  await expect(tail).toBeFocused()
  const time = running.locator('.tabular-nums')
  await expect(time).toHaveText(/\d/)
  const before = await time.innerText()
  await expect(time).not.toHaveText(before)

  // Open the gate: the build finishes, the page says so without a reload.
  const folder = readdirSync(environments, { recursive: true, withFileTypes: true }).find(
    (e) => e.isDirectory() && e.name === 'slow-build',
  )!
  writeFileSync(path.join(folder.parentPath, folder.name, '.gate'), '')
  await expect(panel.getByText('Ready', { exact: true })).toBeVisible()
  await expect(panel.getByRole('status')).toContainText(/Built in .* \(2 setup steps\)/)
  await expect(panel.locator('[data-testid="bootstrap-step"][data-status="running"]')).toHaveCount(0)
  // The steps are folded under the summary; opening them from the keyboard shows both done.
  const steps = panel.getByText('Setup steps', { exact: true })
  await steps.focus()
  await page.keyboard.press('Enter')
  await expect(panel.locator('[data-testid="bootstrap-step"][data-status="ok"]')).toHaveCount(2)
  // The page's data followed: the files the build wrote are listed.
  await expect(page.getByRole('link', { name: 'AGENTS.md' })).toBeVisible()
  expect((await command).status()).toBe(200)
})

test('a failed setup step shows its output whole on a phone: a long word breaks inside its box', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize(VIEWPORTS.phone)
  await signUp(page, 'Bo Phone', uniqueEmail('bo-phone'))
  const headers = { origin: baseURL! }
  // One 300-character word of output (a hash, a minified line, a URL), then the step fails.
  const definition = ['---', 'setup:', `  - 'printf "%0300d\\n" 0; exit 3'`, '---', 'A failing build.'].join(
    '\n',
  )
  const saved = await page.request.put('/_agent-native/resources/personal/environments/long-word.md', {
    headers: { ...headers, 'content-type': 'text/plain' },
    data: definition,
  })
  expect(saved.status()).toBe(201)
  await page.request.post('/_agent-native/environments/long-word/commands', {
    headers,
    data: { command: 'true' },
    timeout: 170_000,
  })

  await page.goto('/environments/long-word?scope=personal')
  const failed = page.locator('[data-testid="bootstrap-step"][data-status="failed"]')
  await expect(failed).toContainText('exit 3')
  const tail = failed.getByTestId('bootstrap-tail')
  await expect(tail).toHaveText(/0{300}/)
  // Before, the box scrolled sideways: 300 zeros in a 300-odd-pixel box.
  await expectWhole(tail)
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBe(0)
})
