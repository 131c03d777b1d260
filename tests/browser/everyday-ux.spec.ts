/**
 * Everyday UX of pages a member meets: the Models page speaks to what they can do (the operator's
 * AGENT_MODEL only to admins and owners), the jobs list says when a job's instructions go on past
 * their one line, and an environment with no files yet says how files come instead of asking to
 * pick one "on the left".
 */
import { expect, test } from '@playwright/test'
import { appReady } from './every-page.ts'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'
import { VIEWPORTS } from './look.ts'
import { joinOrganisation } from './org.ts'

// Two sign-ups on a busy machine.
test.describe.configure({ timeout: 120_000 })

test('Settings → Models names AGENT_MODEL to admins and owners, and gives members words they can use', async ({
  page,
  browser,
}) => {
  const memberEmail = uniqueEmail('mona')
  const member = await browser.newPage()
  await signUp(member, 'Mona Member', memberEmail)
  await signUp(page, 'Olga Owner', uniqueEmail('olga'))
  await joinOrganisation(page, member, memberEmail, 'member')

  await page.goto('/settings/models')
  // The paragraph under the model's facts that says where the model and the keys come from.
  const where = (p: typeof page) => p.locator('p').filter({ hasText: 'Chats and your jobs use your own key' })
  await expect(where(page)).toContainText('AGENT_MODEL')

  await member.goto('/settings/models')
  const source = where(member)
  await expect(source).toContainText("ask an admin of Olga's workspace")
  await expect(source).not.toContainText('AGENT_MODEL')
  await expect(source).not.toContainText('.env')
  await member.close()
})

test('the jobs list says, in words too, when instructions go on past their line', async ({ page }) => {
  await signUp(page, 'Lena Long', uniqueEmail('lena'))
  const long = `Read every new sign-up of yesterday, group them by country and plan, ${'and then some more words '.repeat(12)}and end with the total.`
  for (const [name, instructions] of [
    ['long-words', long],
    ['short-words', 'Count.'],
  ] as const) {
    await createJobOverApi(page, { name, schedule: '0 7 1 1 *', instructions })
  }
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport)
    await page.goto('/jobs')
    await appReady(page)
    const more = page.getByRole('link', { name: 'more: all the instructions of long-words' })
    await expect(more, size).toBeVisible()
    await expect(page.getByTestId('job-row-short-words').getByRole('link', { name: /^more/ })).toHaveCount(0)
  }
  await page.getByRole('link', { name: 'more: all the instructions of long-words' }).click()
  await expect(page).toHaveURL(/\/jobs\/job_[^/?]+\?tab=definition$/)
  // Its owner reads them whole in the definition's editor.
  await expect(page.getByRole('textbox', { name: 'Prompt' })).toHaveValue(long)
})

test('an environment with no files says how files come, not to pick one', async ({ page, baseURL }) => {
  await signUp(page, 'Nora Nofiles', uniqueEmail('nora'))
  const saved = await page.request.put('/_agent-native/resources/personal/environments/bare.md', {
    headers: { origin: baseURL!, 'content-type': 'text/plain' },
    data: '---\nsetup: []\n---\nNothing in it yet.',
  })
  expect(saved.ok(), await saved.text()).toBe(true)
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport)
    await page.goto('/environments/bare?scope=personal')
    await expect(page.getByRole('heading', { name: 'No files yet' }), size).toBeVisible()
    await expect(page.getByText('Run a command above')).toBeVisible()
    await expect(page.getByText('Pick a file')).toHaveCount(0)
  }
})
