/**
 * Issue 26 item 2, while the run is still going: live-run-state.spec.ts follows a run to its end;
 * here the model never answers, so the run stays active. The job's status card, its run row and
 * the list's dot all say "Running" together, readable in light and dark, and when the run is
 * cancelled from elsewhere (the API) they all follow without a reload.
 */
import { randomBytes } from 'node:crypto'
import { expect } from '@playwright/test'
import { test } from './agent-server.ts'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'
import { contrastOf, graphicContrastOf, useTheme, VIEWPORTS } from './look.ts'

// Sign-up, a run through the server's scheduler and page loads in two themes on a busy machine.
test.describe.configure({ timeout: 150_000 })

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test(`an active run reads "Running" on the card, the row and the list's dot, then all follow its end (${size})`, async ({
    page,
    baseURL,
    fake,
  }) => {
    await page.setViewportSize(viewport)
    const tag = randomBytes(3).toString('hex')
    const name = `slow-${tag}`
    // The model never answers: the run stays running until it is cancelled.
    fake.replyWhen(tag, { hang: true })
    await signUp(page, 'Ada Active', uniqueEmail('ada'))
    const headers = { origin: baseURL! }
    const job = await createJobOverApi(page, {
      name,
      schedule: '0 7 1 1 *',
      instructions: `Take your time (${tag}).`,
    })

    await page.goto(`/jobs/${job.id}`)
    await page.getByRole('button', { name: 'Run now' }).click()
    const row = page.getByTestId('run-row').first()
    await expect(row).toHaveAttribute('data-status', 'running', { timeout: 30_000 })
    const lastRun = page.getByTestId('last-run')
    await expect(lastRun).toContainText('Running')
    const runId = /\/runs\/([^/?#]+)/.exec(
      (await row.getByRole('link').first().getAttribute('href')) ?? '',
    )?.[1]
    expect(runId).toBeDefined()

    const listRow = page.getByTestId(`job-row-${name}`)
    const dot = listRow.getByTestId('run-dots').getByRole('link').last()
    for (const theme of ['light', 'dark'] as const) {
      await useTheme(page, theme)
      await page.goto(`/jobs/${job.id}`)
      const chip = lastRun.getByText('Running', { exact: true })
      await expect(chip).toBeVisible()
      expect(await contrastOf(chip), `${theme}: the card's "Running"`).toBeGreaterThanOrEqual(4.5)
      await page.goto('/jobs')
      await expect(dot).toHaveAttribute('data-status', 'running')
      await expect(dot).toHaveAttribute('aria-label', 'Running')
      // A dot is a shape, not text: 3:1 against the row (WCAG 1.4.11).
      expect(await graphicContrastOf(dot), `${theme}: the running dot`).toBeGreaterThanOrEqual(3)
    }

    // Cancelled elsewhere: the list's dot follows without a reload, then the job's card and row.
    await page.evaluate(() => ((window as { stayed?: boolean }).stayed = true))
    const cancelled = await page.request.post(`/_agent-native/runs/${runId}/cancel`, { headers })
    expect(cancelled.status()).toBe(200)
    await expect(dot).toHaveAttribute('data-status', 'cancelled', { timeout: 30_000 })
    expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed)).toBe(true)
    for (const theme of ['dark', 'light'] as const) {
      await useTheme(page, theme)
      await page.goto('/jobs')
      await expect(dot).toHaveAttribute('aria-label', 'Cancelled')
      expect(await graphicContrastOf(dot), `${theme}: the cancelled dot`).toBeGreaterThanOrEqual(3)
    }
    await page.goto(`/jobs/${job.id}`)
    await expect(row).toHaveAttribute('data-status', 'cancelled')
    await expect(lastRun).toContainText('Cancelled')
  })
}
