/** The app's own pages open the same way: their heading in one place, at one size. */
import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

test('every section page puts its heading where the jobs page does', async ({ page }) => {
  await signUp(page, 'Hal Headings', uniqueEmail('hal'))
  const heading = async (url: string) => {
    await page.goto(url)
    const h1 = page.getByRole('heading', { level: 1 })
    await expect(h1).toBeVisible()
    return h1.evaluate((el) => {
      const box = el.getBoundingClientRect()
      return { x: Math.round(box.x), y: Math.round(box.y), size: getComputedStyle(el).fontSize }
    })
  }
  const jobs = await heading('/jobs')
  for (const url of ['/calendar', '/workspace', '/environments', '/skills', '/notifications', '/settings']) {
    expect(await heading(url), url).toEqual(jobs)
  }
})
