import { expect } from '@playwright/test'
import { test } from './agent-server.ts'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'

test('run now from the job page: the run shows up, finishes, and its page shows the transcript', async ({
  page,
}) => {
  await signUp(page, 'Rita Runner', uniqueEmail('rita'))
  await expect(page.getByRole('alert').filter({ hasText: 'will not fire' })).toHaveCount(0)
  const job = await createJobOverApi(page, {
    name: 'signups',
    schedule: '0 7 * * 1-5',
    instructions: 'Summarise yesterday’s sign-ups.',
  })

  await page.goto(`/jobs/${job.id}`)
  await expect(page.getByText('No runs yet')).toBeVisible()
  await page.getByRole('button', { name: 'Run now', exact: true }).click()
  await expect(page.getByText('Run queued')).toBeVisible()
  const row = page.getByTestId('run-row').first()
  await expect(row).toHaveAttribute('data-status', 'success')
  await expect(row).toContainText('Succeeded')
  await expect(row).toContainText('Run now')
  await expect(row).toContainText('12 in · 7 out')

  // The row opens the run's own page: its header and transcript.
  await row.getByRole('link', { name: /^Transcript of the succeeded run/ }).click()
  await expect(page).toHaveURL(new RegExp(`/jobs/${job.id}/runs/run_`))
  const transcript = page.getByTestId('transcript')
  await expect(transcript).toContainText('Summarise yesterday’s sign-ups.')
  await expect(transcript.locator('strong')).toHaveText('42')
  await page.getByRole('link', { name: 'signups' }).click()
  await expect(page).toHaveURL(new RegExp(`/jobs/${job.id}$`))
})
