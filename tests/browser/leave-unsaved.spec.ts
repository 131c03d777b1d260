/**
 * Leaving a job with unsaved changes asks in the app's dialog, not the browser's confirm: it reads
 * in the app's theme, Escape (or "Keep editing") stays with the changes, "Discard changes" leaves.
 */
import { expect, test } from '@playwright/test'
import { axeFindings } from './axe.ts'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'
import { useTheme } from './look.ts'

test.describe.configure({ timeout: 90_000 })

test('leaving a job with unsaved changes asks in the app dialog; Escape stays', async ({ page }) => {
  await signUp(page, 'Lea Leave', uniqueEmail('lea'))
  const job = await createJobOverApi(page, {
    name: 'leaving',
    schedule: '0 7 1 1 *',
    instructions: 'Say done.',
  })
  // Were the browser's own confirm still asked, it would be accepted here and the page left at once.
  page.on('dialog', (d) => void d.accept())
  await useTheme(page, 'dark')
  await page.goto(`/jobs/${job.id}?tab=definition`)
  await page.getByLabel('Prompt').fill('Say done, twice.')

  const back = page.getByRole('link', { name: 'Jobs', exact: true }).first()
  await back.click()
  const dialog = page.getByRole('alertdialog', { name: 'Discard your unsaved changes to this job?' })
  await expect(dialog).toBeVisible()
  expect(await axeFindings(page, 'leave dialog, dark')).toEqual([])
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(page).toHaveURL(new RegExp(`/jobs/${job.id}\\?tab=definition$`))
  await expect(page.getByLabel('Prompt')).toHaveValue('Say done, twice.')

  await back.click()
  await dialog.getByRole('button', { name: 'Discard changes' }).click()
  await expect(page).toHaveURL(/\/jobs$/)
})
