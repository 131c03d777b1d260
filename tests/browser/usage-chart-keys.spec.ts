import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

test.describe.configure({ timeout: 120_000 })

test('the usage chart is one tab stop: arrows move between days, and the focused day is drawn', async ({
  page,
}) => {
  await signUp(page, 'Kim Keys', uniqueEmail('kim'))
  await page.goto('/settings/usage')
  const chart = page.getByRole('figure', { name: /Cost per day, last 30 days/ })
  const bars = chart.getByRole('list', { name: 'Cost per day' }).getByRole('listitem')
  await expect(bars).toHaveCount(30)
  const readout = chart.locator('[aria-live]')

  // From the metric switch, one Tab enters the chart at today (the last day)…
  const tokens = chart.getByRole('button', { name: 'Tokens' })
  await expect(tokens).toBeEnabled() // once the page has hydrated (decision 0537)
  await tokens.focus()
  await page.keyboard.press('Tab')
  await expect(bars.last()).toBeFocused()
  const todayName = (await bars.last().getAttribute('aria-label'))!.split(':')[0]!
  await expect(readout).toContainText(todayName)
  // …drawn as focused (a day with no cost has no bar to recolour), and the arrows move by a day.
  const ring = (i: number) =>
    bars
      .nth(i)
      .locator('rect')
      .first()
      .evaluate((rect) => getComputedStyle(rect).stroke)
  expect(await ring(29)).not.toBe('none')
  await page.keyboard.press('ArrowLeft')
  await expect(bars.nth(28)).toBeFocused()
  expect(await ring(28)).not.toBe('none')
  expect(await ring(29)).toBe('none')
  await page.keyboard.press('Home')
  await expect(bars.first()).toBeFocused()
  await page.keyboard.press('End')
  await expect(bars.last()).toBeFocused()

  // One more Tab leaves the chart: thirty days are not thirty tab stops.
  await page.keyboard.press('Tab')
  await expect(chart.getByRole('listitem').and(page.locator(':focus'))).toHaveCount(0)
  await expect(page.getByText('Show as a table')).toBeFocused()
})
