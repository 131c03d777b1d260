/**
 * Settings → Usage on a laptop: the per-job and per-person tables show every column whole, with
 * no cost cut off at the card's edge and no name or email broken in the middle of a word. The
 * settings column is 48rem wide, too narrow for the two tables side by side.
 */
import { expect, test } from '@playwright/test'
import { createJobOverApi, runToEnd, signUp, uniqueEmail } from './helpers.ts'
import { expectWhole, VIEWPORTS, wordsBrokenAcrossLines } from './look.ts'

// Sign-up and a run through the shared server's scheduler on a busy machine.
test.describe.configure({ timeout: 120_000 })

test('the usage tables fit a laptop’s settings column', async ({ page, baseURL }) => {
  await page.setViewportSize(VIEWPORTS.desktop)
  await signUp(page, 'Ulrike Usage', uniqueEmail('ulrike'))
  const job = await createJobOverApi(page, {
    name: 'weekly-signups-report',
    schedule: '0 7 1 1 *',
    instructions: 'Count.',
    enabled: false,
  })
  const run = await runToEnd(page, baseURL!, job.id)
  expect(run.status).toBe('success')

  await page.goto('/settings/usage')
  for (const [row, text] of [
    ['weekly-signups-report', 'weekly-signups-report'],
    ['Ulrike Usage', 'ulrike-'],
  ] as const) {
    const table = page.getByRole('table').filter({ hasText: row })
    await expect(table).toContainText('$')
    // The scrolling box around the table: its content is no wider than it.
    await expectWhole(table.locator('..'))
    expect(await wordsBrokenAcrossLines(table.getByRole('row').filter({ hasText: text }))).toEqual([])
  }
})
