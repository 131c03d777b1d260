import { expect, test } from '@playwright/test'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'
import { VIEWPORTS } from './look.ts'

// A run goes through the shared server's real scheduler and fake model.
test.describe.configure({ timeout: 120_000 })

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test(`after Run now the status card, the run rows and the list's dots move together (${size})`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport)
    await signUp(page, 'Liv Live', uniqueEmail('liv'))
    const job = await createJobOverApi(page, {
      name: 'live',
      schedule: '0 7 1 1 *',
      instructions: 'Say done.',
    })

    await page.goto(`/jobs/${job.id}`)
    const lastRun = page.getByTestId('last-run')
    await expect(lastRun).toHaveText('Never')
    // Proof that nothing below reloads the page: this survives only without a navigation.
    await page.evaluate(() => ((window as { stayed?: boolean }).stayed = true))

    await page.getByRole('button', { name: 'Run now' }).click()
    const row = page.getByTestId('run-row').first()
    await expect(row).toHaveAttribute('data-status', 'success', { timeout: 30_000 })
    // The card says the same as the row, without a reload.
    await expect(lastRun).toContainText('Succeeded')
    await expect(lastRun).not.toContainText('Never')
    expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed)).toBe(true)

    // The list, too: Run now from a row's menu, and its dots grow by one as the run ends.
    await page.goto('/jobs')
    const listRow = page.getByTestId('job-row-live')
    const dots = listRow.getByTestId('run-dots').getByRole('link')
    await expect(dots).toHaveCount(1)
    await page.evaluate(() => ((window as { stayed?: boolean }).stayed = true))
    await listRow.getByRole('button', { name: 'Actions for live' }).click()
    await page.getByRole('menuitem', { name: 'Run now' }).click()
    await expect(dots).toHaveCount(2, { timeout: 30_000 })
    await expect(dots.last()).toHaveAttribute('data-status', 'success', { timeout: 30_000 })
    expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed)).toBe(true)
  })
}
