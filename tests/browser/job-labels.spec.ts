/**
 * Labels on the job pages keep their line however long the text beside them is: the job page's
 * Details card with a long full name, and the new-job form's Advanced summary on a phone, whose
 * list of fields once squeezed into a column a word or two wide beside the label.
 */
import { expect, test } from '@playwright/test'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'
import { linesOf, VIEWPORTS } from './look.ts'

test.describe.configure({ timeout: 120_000 })

test('the Details card’s labels stay on one line beside a long name', async ({ page }) => {
  await signUp(page, 'Maximiliane Wilhelmina Longname-Fitzgerald', uniqueEmail('max'))
  const jobId = (await createJobOverApi(page, { name: 'labels', schedule: '0 7 * * *', instructions: 'Go.' }))
    .id
  for (const viewport of Object.values(VIEWPORTS)) {
    await page.setViewportSize(viewport)
    await page.goto(`/jobs/${jobId}`)
    const details = page.locator('dl').filter({ has: page.getByText('Runs as', { exact: true }) })
    await expect(details).toBeVisible()
    for (const label of await details.locator('dt').all()) {
      expect(await linesOf(label), `${await label.textContent()} at ${viewport.width} px`).toBe(1)
    }
  }
})

test('on a phone the Advanced summary lists its fields under the label, across the box', async ({ page }) => {
  await signUp(page, 'Petra Phone', uniqueEmail('petra'))
  await page.setViewportSize(VIEWPORTS.phone)
  await page.goto('/jobs/new')
  const summary = page.locator('summary').filter({ hasText: 'Advanced' })
  const list = summary.locator('span').filter({ hasText: 'retries' })
  const [summaryBox, listBox] = await Promise.all([summary.boundingBox(), list.boundingBox()])
  // The list starts on the line below the label and takes (nearly) the summary's whole width.
  expect(listBox!.y).toBeGreaterThan(summaryBox!.y + 20)
  expect(listBox!.width).toBeGreaterThan(summaryBox!.width * 0.75)
  expect(await linesOf(list)).toBeLessThanOrEqual(4)
})
