import { expect, test } from '@playwright/test'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'

test.describe.configure({ timeout: 180_000 })

test('the jobs page shows 50 jobs at a time with the total, and pages on', async ({ page }) => {
  await signUp(page, 'Paula Pager', uniqueEmail('paula'))
  for (let i = 0; i < 53; i++) {
    await createJobOverApi(page, {
      name: `report-${String(i).padStart(2, '0')}`,
      schedule: '0 7 * * 1-5',
      instructions: 'Sum up.',
    })
  }
  await page.goto('/jobs')
  const rows = page.locator('tbody tr')
  await expect(rows).toHaveCount(50)
  const pager = page.getByRole('navigation', { name: 'Pages' })
  await expect(pager).toContainText('50 of 53 jobs')
  await pager.getByRole('link', { name: 'Next page' }).click()
  await expect(rows).toHaveCount(3)
  await expect(rows.first()).toContainText('report-50')
  await expect(pager).toContainText('3 of 53 jobs')
  await expect(pager.getByRole('link', { name: 'Next page' })).toHaveCount(0)

  // Changing the sort goes back to the first page.
  await page.getByRole('link', { name: /Name/ }).first().click()
  await expect(page).not.toHaveURL(/cursor=/)
  await expect(rows).toHaveCount(50)
  await pager.getByRole('link', { name: 'First page' }).waitFor({ state: 'detached' })
})
