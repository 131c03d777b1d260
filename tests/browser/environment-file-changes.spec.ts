import { expect as baseExpect } from '@playwright/test'
import { test } from './environments-server.ts'
import { signUp, uniqueEmail } from './helpers.ts'

// Sandboxed commands: the first one starts the sandbox, slow on a busy machine.
test.describe.configure({ timeout: 180_000 })
const expect = baseExpect.configure({ timeout: 30_000 })

test("the environment page lists the files its commands changed, the command box's included", async ({
  page,
}) => {
  await signUp(page, 'Fay Files', uniqueEmail('fay'))
  await page.goto('/environments/scratch')
  await expect(page.getByText('No file changes yet.')).toBeVisible()

  const command = page.getByLabel('Command')
  await command.fill('mkdir -p notes && echo one > notes/a.txt && echo two > b.txt')
  await command.press('Enter')
  await expect(page.getByTestId('command-result')).toContainText('Exit 0')
  // The command's own result says what it changed…
  const ran = page.getByTestId('command-files')
  await expect(ran.getByRole('listitem')).toHaveText(['+createdb.txt', '+creatednotes/a.txt'])
  // …and the page's list keeps it, newest first, with who and from where.
  const changes = page.getByTestId('file-changes')
  await expect(changes.getByRole('listitem')).toHaveCount(2)
  await expect(changes).toContainText('command box · Fay Files')

  await command.fill('rm b.txt && echo more >> notes/a.txt')
  await command.press('Enter')
  await expect(ran.getByRole('listitem')).toHaveText(['-deletedb.txt', '~changednotes/a.txt'])
  const items = changes.getByRole('listitem')
  await expect(items).toHaveCount(4)
  // Recorded in path order per command, listed newest first.
  await expect(items.nth(0)).toContainText('~changednotes/a.txt')
  await expect(items.nth(1)).toContainText('-deletedb.txt')
  await expect(items.nth(3)).toContainText('+createdb.txt')
  // File events stay out of the audit log, which lists the two commands.
  await expect(page.getByTestId('audit-log').locator('tbody tr')).toHaveCount(2)
})
