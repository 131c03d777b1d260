import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

// A story of page loads and live validation; a busy machine needs more than the default 60 s.
test.describe.configure({ timeout: 120_000 })

// Two mistakes, two lines apart: the provider (line 2) and the policy's default (line 4).
const twoMistakes = [
  '---',
  'provider: nowhere',
  'policy:',
  '  default: maybe',
  'secrets: []',
  '---',
  '',
  '# Two mistakes',
  '',
].join('\n')

test('an environment definition with two mistakes marks both lines and names both', async ({ page }) => {
  await signUp(page, 'Dora Definer', uniqueEmail('dora'))
  await page.goto('/workspace')
  await page.getByRole('button', { name: 'Environment' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Name').fill('Two Mistakes')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/path=environments%2Ftwo-mistakes\.md/)
  const verdict = page.getByTestId('file-verdict')
  await expect(verdict).toContainText('Valid environment definition')

  await page.locator('.cm-content').click()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.insertText(twoMistakes)

  // The list names each mistake with its line…
  const problems = verdict.getByRole('listitem')
  await expect(problems).toHaveCount(2)
  await expect(problems.nth(0)).toContainText('Line 2')
  await expect(problems.nth(0)).toContainText('provider')
  await expect(problems.nth(1)).toContainText('Line 4')
  await expect(problems.nth(1)).toContainText('policy.default')
  // …and the editor marks each line, not only the first.
  const marked = page.locator('.cm-error-line')
  await expect(marked).toHaveCount(2)
  await expect(marked.nth(0)).toContainText('provider: nowhere')
  await expect(marked.nth(1)).toContainText('default: maybe')

  // Fixing one leaves the other marked.
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.insertText(twoMistakes.replace('nowhere', 'local'))
  await expect(marked).toHaveCount(1)
  await expect(marked).toContainText('default: maybe')
  await expect(verdict).toContainText('Line 4')
  await expect(verdict).not.toContainText('provider')
})
