/**
 * Settings → Members: Remove asks in the app's dialog (not the browser's confirm), names the person
 * and what leaves with them, cancels on Escape, shows a refusal in the dialog, and once the row is
 * gone leaves the focus on the members table (decision 0428). The table is read by axe on a phone,
 * light and dark, with a member to manage in it.
 */
import { expect, test, type Browser, type Page } from '@playwright/test'
import { axeFindings } from './axe.ts'
import { signUp, uniqueEmail } from './helpers.ts'
import { VIEWPORTS, useTheme } from './look.ts'
import { joinOrganisation } from './org.ts'

// Two sign-ups hash two passwords on a busy machine.
test.describe.configure({ timeout: 120_000 })

/** Ana owns the organisation; Bob joins it with `role`. Each has a page of their own. */
async function anaAndBob(browser: Browser, role: 'member' | 'admin') {
  const ana = await (await browser.newContext()).newPage()
  await signUp(ana, 'Ana Lima', uniqueEmail('ana'))
  const bob = await (await browser.newContext()).newPage()
  const bobEmail = uniqueEmail('bob')
  await signUp(bob, 'Bob Berg', bobEmail)
  await joinOrganisation(ana, bob, bobEmail, role)
  return { ana, bob, bobEmail }
}

const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name })

test('Remove asks in the app dialog, naming the person and what happens; Escape keeps them', async ({
  browser,
}) => {
  const { ana, bobEmail } = await anaAndBob(browser, 'member')
  // Were the browser's own confirm still asked, it would be accepted here and Bob removed at once.
  ana.on('dialog', (d) => void d.accept())
  await ana.goto('/settings/members')
  // The browser tests' server has no SMTP_URL (the mailed case: delivery.test.ts).
  await expect(ana.getByText('This server sends no email, so share the link yourself.')).toBeVisible()
  const remove = ana.getByRole('button', { name: 'Remove Bob Berg' })
  // Enabled once the page has hydrated: focused before that (a loaded CI machine), Enter did nothing.
  await expect(remove).toBeEnabled()
  await remove.focus()
  await ana.keyboard.press('Enter')

  const dialog = ana.getByRole('alertdialog', { name: 'Remove Bob Berg?' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText(bobEmail)
  await expect(dialog).toContainText('Their jobs here pause')
  await expect(dialog).toContainText('access tokens for this organisation stop working')
  await expect(dialog).toContainText('machines stay on their account')

  await ana.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(remove).toBeFocused()
  await expect(rowOf(ana, 'Bob Berg')).toHaveCount(1)

  await ana.keyboard.press('Enter')
  await dialog.getByRole('button', { name: 'Remove Bob Berg' }).click()
  await expect(rowOf(ana, 'Bob Berg')).toHaveCount(0)
  await expect(ana.getByText('Bob Berg removed')).toBeVisible()
  await expect(ana.locator('#members-heading')).toBeFocused()
  await expect(ana.locator('#members-heading')).toHaveText('Members (1)')
})

test('an admin removing the owner is refused in the dialog, in words that say why', async ({ browser }) => {
  const { bob } = await anaAndBob(browser, 'admin')
  await bob.goto('/settings/members')
  await bob.getByRole('button', { name: 'Remove Ana Lima' }).click()
  const dialog = bob.getByRole('alertdialog', { name: 'Remove Ana Lima?' })
  await dialog.getByRole('button', { name: 'Remove Ana Lima' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('Ana Lima is an owner: only an owner removes an owner')
  await expect(dialog).toBeVisible()
  await bob.reload()
  await expect(rowOf(bob, 'Ana Lima')).toHaveCount(1)
})

test('the members table and the Remove dialog pass axe on a phone, light and dark', async ({ browser }) => {
  const { ana } = await anaAndBob(browser, 'member')
  await ana.setViewportSize(VIEWPORTS.phone)
  for (const theme of ['light', 'dark'] as const) {
    await useTheme(ana, theme)
    await ana.goto('/settings/members')
    await expect(ana.getByRole('button', { name: 'Remove Bob Berg' })).toBeEnabled()
    expect(await axeFindings(ana, `members, phone, ${theme}`)).toEqual([])
    await ana.getByRole('button', { name: 'Remove Bob Berg' }).click()
    await expect(ana.getByRole('alertdialog')).toBeVisible()
    expect(await axeFindings(ana, `remove dialog, phone, ${theme}`)).toEqual([])
    await ana.keyboard.press('Escape')
  }
})
