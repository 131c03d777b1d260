import { randomBytes } from 'node:crypto'
import { expect as baseExpect } from '@playwright/test'
import { toolUse } from '../support/fake-anthropic.ts'
import { test } from './environments-server.ts'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'
import { contrastOf, useTheme, VIEWPORTS } from './look.ts'

// Sandboxed commands, a run through the scheduler and page loads in two themes on a busy machine.
test.describe.configure({ timeout: 180_000 })
const expect = baseExpect.configure({ timeout: 30_000 })

// rm is denied by the policy; example.com is in no allowlist.
const GUARDED = '---\npolicy:\n  commands:\n    deny: ["rm *"]\n---\nGuarded.\n'

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test(`refused commands read as refused: command box, audit, run, transcript, list (${size})`, async ({
    page,
    baseURL,
    fake,
  }) => {
    await page.setViewportSize(viewport)
    const tag = randomBytes(3).toString('hex')
    await signUp(page, 'Rhea Refused', uniqueEmail('rhea'))
    const headers = { origin: baseURL! }
    const saved = await page.request.put('/_agent-native/resources/personal/environments/guarded.md', {
      headers: { ...headers, 'content-type': 'text/plain' },
      data: GUARDED,
    })
    expect(saved.status()).toBe(201)

    // 3. A connection the allowlist refused: curl prints the proxy's page and exits 0.
    await page.goto('/environments/guarded?scope=personal')
    const command = page.getByLabel('Command')
    await command.fill('curl -sS http://example.com/')
    await command.press('Enter')
    const result = page.getByTestId('command-result')
    await expect(result.getByTestId('network-refused')).toHaveText('Network refused')
    await expect(page.getByTestId('network-refusal')).toContainText('example.com:80')
    await expect(result).toContainText('Exit 0')
    const audit = page.getByTestId('audit-log')
    await expect(audit.getByText('network refused', { exact: true })).toBeVisible()
    await expect(audit).toContainText("Network refused: example.com:80 is not in the environment's allowlist")
    await expect(audit.getByText('allowed', { exact: true })).toHaveCount(0)

    // 4. A run whose agent was refused both of its commands still "succeeds", and says so.
    const job = await createJobOverApi(page, {
      name: 'fetch-and-clean',
      schedule: '0 7 1 1 *',
      instructions: `Fetch the page and clean up (${tag}).`,
      environment: 'guarded',
    })
    fake.replyWhen(
      tag,
      toolUse('run_command', { command: 'curl -sS https://example.com/' }),
      toolUse('run_command', { command: 'rm -f old.log' }),
      { text: `Could not do either (${tag}).` },
    )
    await page.goto(`/jobs/${job.id}`)
    await page.getByRole('button', { name: 'Run now' }).click()
    const row = page.getByTestId('run-row').first()
    await expect(row).toHaveAttribute('data-status', 'success')
    await expect(row.getByTestId('denied-chip')).toHaveText('2 commands denied')
    await expect(page.getByTestId('last-run').getByTestId('denied-chip')).toHaveText('2 commands denied')

    await row.getByRole('link').first().click()
    await expect(page.getByRole('heading', { level: 1 }).getByTestId('denied-chip')).toHaveText(
      '2 commands denied',
    )
    const runPage = page.url()
    const steps = page.getByTestId('transcript').getByTestId('tool-step')
    const refusedStep = steps.filter({ hasText: 'network refused (example.com:443)' })
    await expect(refusedStep).toBeVisible()
    await expect(refusedStep.getByLabel('Refused')).toBeVisible()
    await expect(steps.filter({ hasText: /Denied by .*rm \*/ })).toBeVisible()

    // The jobs list: the flag on the row, and a filter for it.
    await page.goto('/jobs?filter=denied')
    const listed = page.getByTestId('job-row-fetch-and-clean')
    // One chip shows: in the last-run column, or under the name where that column gave way.
    const chip = listed.getByTestId('denied-chip').filter({ visible: true })
    await expect(chip).toHaveText('2 commands denied')
    await page.goto('/jobs')
    await page
      .getByRole('navigation', { name: 'Filter jobs' })
      .getByRole('link', { name: 'Commands denied' })
      .click()
    await expect(page).toHaveURL(/filter=denied/)
    await expect(listed).toBeVisible()

    // Both themes keep the refusals readable.
    for (const theme of ['light', 'dark'] as const) {
      await useTheme(page, theme)
      await page.goto('/jobs?filter=denied')
      expect(await contrastOf(chip)).toBeGreaterThanOrEqual(4.5)
      await page.goto('/environments/guarded?scope=personal')
      const badge = page.getByTestId('audit-log').getByText('network refused', { exact: true }).first()
      expect(await contrastOf(badge)).toBeGreaterThanOrEqual(4.5)
      // The run: its heading's flag and the transcript's refused steps.
      await page.goto(runPage)
      const flag = page.getByRole('heading', { level: 1 }).getByTestId('denied-chip')
      expect(await contrastOf(flag), `${theme}: the run's flag`).toBeGreaterThanOrEqual(4.5)
      const refusal = refusedStep.getByText(/network refused \(example\.com:443\)/)
      expect(await contrastOf(refusal), `${theme}: the refused step`).toBeGreaterThanOrEqual(4.5)
      const denial = steps.filter({ hasText: /Denied by .*rm \*/ }).getByText(/Denied by/)
      expect(await contrastOf(denial), `${theme}: the denied step`).toBeGreaterThanOrEqual(4.5)
    }
  })
}
