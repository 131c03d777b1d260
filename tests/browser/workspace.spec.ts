import { expect, test, type Page } from '@playwright/test'
import { createJobOverApi, signUp, uniqueEmail } from './helpers.ts'
import { expectWhole, VIEWPORTS } from './look.ts'
import { joinOrganisation } from './org.ts'

// Each test is a whole story of page loads and saves; a busy machine needs more than the default 60 s.
test.describe.configure({ timeout: 180_000 })

const editor = (page: Page) => page.locator('.cm-content')

/** Replaces the editor's whole text, as typing would. */
async function setEditorText(page: Page, text: string) {
  await editor(page).click()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.insertText(text)
}

const jobFile = (schedule: string, body = 'Send the weekly digest.') =>
  ['---', `schedule: ${schedule}`, 'timezone: Europe/Paris', 'enabled: true', '---', '', body, ''].join('\n')

test('edit a job file in the workspace: a broken cron shows inline, a fixed one saves the job', async ({
  page,
}) => {
  await signUp(page, 'Wanda Writer', uniqueEmail('wanda'))
  await page.getByRole('link', { name: 'Workspace' }).click()
  await expect(page.getByText('Pick a file')).toBeVisible()

  await page.getByRole('button', { name: 'Job', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Name').fill('weekly-digest')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/scope=personal&path=jobs%2Fweekly-digest\.md/)
  await expect(page.getByRole('link', { name: 'weekly-digest.md' })).toHaveAttribute('aria-current', 'page')
  const verdict = page.getByTestId('file-verdict')
  await expect(verdict).toContainText('Valid job file')
  await expect(editor(page)).toContainText('enabled: false')

  // A broken cron: the line and the reason, inline, as you type.
  await setEditorText(page, jobFile('"0 25 * * 1"'))
  await expect(verdict).toContainText('Line 2')
  await expect(verdict).toContainText('hour')
  await expect(verdict).toContainText('25')
  await expect(page.locator('.cm-error-line')).toHaveCount(1)
  await expect(page.locator('.cm-error-line')).toContainText('schedule')

  // Broken YAML (an unquoted */5 is a YAML alias) names its line too.
  await setEditorText(page, jobFile('*/5 * * * *'))
  await expect(verdict).toContainText('Line 2: invalid YAML')

  // Saving a broken file is refused with the reason, and the text stays.
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Not saved' })).toContainText('invalid YAML')
  await expect(editor(page)).toContainText('*/5 * * * *')

  // Fixed: valid, saved through the jobs service, and the job changed.
  await setEditorText(page, jobFile('"*/30 * * * *"'))
  await expect(verdict).toContainText('Valid job file')
  await expect(verdict).toContainText('Every 30 minutes')
  await expect(page.locator('.cm-error-line')).toHaveCount(0)
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Saved jobs/weekly-digest.md')).toBeVisible()
  await expect(editor(page)).toContainText('createdBy:')
  await page.getByRole('link', { name: 'Open job' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'weekly-digest' })).toBeVisible()
  await expect(page.getByText('Every 30 minutes (Europe/Paris)').first()).toBeVisible()
  await page.getByRole('tab', { name: 'Definition' }).click()
  await expect(page.getByLabel('Prompt')).toHaveValue('Send the weekly digest.')
})

test('a NUL in the draft is named by the live check, which does not keep saying it is checking', async ({
  page,
}) => {
  await signUp(page, 'Nell Null', uniqueEmail('nell'))
  await page.getByRole('link', { name: 'Workspace' }).click()
  await page.getByRole('button', { name: 'Job', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Name').fill('nul-digest')
  await dialog.getByRole('button', { name: 'Create' }).click()
  const verdict = page.getByTestId('file-verdict')
  await expect(verdict).toContainText('Valid job file')

  // The page form refuses text PostgreSQL cannot store before the check runs: that refusal is the verdict.
  await setEditorText(page, jobFile('"0 7 * * *"', 'Send the digest.\u0000'))
  await expect(verdict).toContainText('must not contain the NUL character')
  await expect(verdict).not.toContainText('Checking')

  await setEditorText(page, jobFile('"0 7 * * *"', 'Send the digest.'))
  await expect(verdict).toContainText('Valid job file')
})

test('+ File creates a plain file that saves; a member sees shared job files read-only', async ({
  browser,
}) => {
  const ownerContext = await browser.newContext()
  const owner = await ownerContext.newPage()
  await signUp(owner, 'Fay Files', uniqueEmail('fay'))
  await owner.goto('/workspace')
  await owner.getByRole('button', { name: 'File', exact: true }).click()
  let dialog = owner.getByRole('dialog')
  await dialog.getByLabel('Path').fill('notes/ideas.md')
  await dialog.getByLabel('Workspace').selectOption('shared')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(owner).toHaveURL(/scope=shared&path=notes%2Fideas\.md/)
  await setEditorText(owner, '# Ideas\n\n- ship it\n')
  await owner.keyboard.press('ControlOrMeta+S')
  await expect(owner.getByText('Saved notes/ideas.md')).toBeVisible()
  await owner.reload()
  await expect(editor(owner)).toContainText('ship it')

  await owner.getByRole('button', { name: 'Job', exact: true }).click()
  dialog = owner.getByRole('dialog')
  await dialog.getByLabel('Name').fill('shared-digest')
  await dialog.getByLabel('Workspace').selectOption('shared')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(owner).toHaveURL(/scope=shared&path=jobs%2Fshared-digest\.md/)

  const memberContext = await browser.newContext()
  const member = await memberContext.newPage()
  const email = uniqueEmail('mo')
  await signUp(member, 'Mo Member', email)
  await joinOrganisation(owner, member, email, 'member')
  await member.goto('/workspace?scope=shared&path=jobs/shared-digest.md')
  await expect(member.getByTestId('read-only-notice')).toBeVisible()
  await expect(editor(member)).toHaveAttribute('contenteditable', 'false')
  await expect(member.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0)
  // Shared plain files are the team's: the member may edit those.
  await member.getByRole('link', { name: 'ideas.md' }).click()
  await expect(member.getByRole('button', { name: 'Save', exact: true })).toBeVisible()
  await ownerContext.close()
  await memberContext.close()
})

test('a job named like a title gets the slug of that title as its job name', async ({ page }) => {
  await signUp(page, 'Tess Title', uniqueEmail('tess'))
  await page.goto('/workspace')
  await page.getByRole('button', { name: 'Job', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Name').fill('Weekly Report!')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/scope=personal&path=jobs%2Fweekly-report\.md/)
  await expect(page.getByRole('link', { name: 'weekly-report.md' })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByTestId('file-verdict')).toContainText('Valid job file')

  // Nothing to make a slug of: the job-name rule answers, not a file-name rule.
  await page.getByRole('button', { name: 'Job', exact: true }).click()
  await page.getByRole('dialog').getByLabel('Name').fill('!!!')
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('dialog')).toContainText('needs at least one letter or digit')
  await expect(page.getByRole('dialog')).not.toContainText('underscores')
})

test('the file tree shows a long file name whole, wrapped, at desktop and phone widths', async ({ page }) => {
  await signUp(page, 'Lars Long', uniqueEmail('lars'))
  // 63 characters, the longest job name, with dashes a line may break at and a run with none.
  const name = `weekly-summary-of-everything-${'x'.repeat(34)}`
  await createJobOverApi(page, { name, schedule: '0 7 * * 1', instructions: 'Sum it up.' })
  for (const viewport of Object.values(VIEWPORTS)) {
    await page.setViewportSize(viewport)
    await page.goto('/workspace')
    const link = page.getByRole('link', { name: `${name}.md` })
    await expect(link).toBeVisible()
    await expectWhole(link.getByText(`${name}.md`, { exact: true }))
  }
})
