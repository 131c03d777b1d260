/**
 * Organisations from the pages (decision 0530): the switcher's New organisation makes one and
 * switches to it; Settings → Organisation renames it and, for its owner, deletes it once its name
 * is typed, landing in another organisation. A member sees the name read-only, whom to ask, and no
 * danger zone. The dialogs keep the keyboard: the focus stays inside, Escape closes, and the focus
 * comes back to what opened them. Axe reads the page and the dialogs in the dark theme.
 */
import { expect, test, type Page } from '@playwright/test'
import { axeFindings } from './axe.ts'
import { signUp, uniqueEmail } from './helpers.ts'
import { VIEWPORTS, useTheme } from './look.ts'
import { activeOrgId, ownerAndMember } from './org.ts'

// Sign-ups hash passwords on a busy machine.
test.describe.configure({ timeout: 120_000 })

const switcher = (page: Page) => page.getByRole('button', { name: /^Organisation:/ })

test('create from the switcher, rename on Settings → Organisation, delete with the name typed', async ({
  page,
}) => {
  await signUp(page, 'Nia Neworg', uniqueEmail('nia'))
  await useTheme(page, 'dark')
  await page.goto('/jobs')
  await expect(switcher(page)).toHaveAccessibleName(/Organisation: Nia's workspace/)

  // Escape closes the dialog and gives the focus back to the switcher.
  await switcher(page).click()
  await page.getByRole('menuitem', { name: 'New organisation' }).click()
  const dialog = page.getByRole('dialog', { name: 'New organisation' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByLabel('Name')).toBeFocused()
  expect(await axeFindings(page, 'new organisation dialog, dark')).toEqual([])
  // The focus stays in the dialog: Tab from its last control comes round to its first.
  for (let i = 0; i < 5; i++) await page.keyboard.press('Tab')
  await expect(dialog.locator(':focus')).toHaveCount(1)
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(switcher(page)).toBeFocused()

  // A bad name is shown on the field, and nothing is made.
  await switcher(page).click()
  await page.getByRole('menuitem', { name: 'New organisation' }).click()
  await dialog.getByLabel('Name').fill('Bell\u0007Labs')
  await dialog.getByRole('button', { name: 'Create organisation' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('must be one line of plain text (no control characters)')
  await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true')
  // Opened again, it starts afresh.
  await page.keyboard.press('Escape')
  await switcher(page).click()
  await page.getByRole('menuitem', { name: 'New organisation' }).click()
  await expect(dialog.getByLabel('Name')).toBeFocused()
  await expect(dialog.getByRole('alert')).toHaveCount(0)

  await dialog.getByLabel('Name').fill('Nia Research')
  await dialog.getByRole('button', { name: 'Create organisation' }).click()
  await expect(page).toHaveURL(/\/jobs$/)
  await expect(switcher(page)).toHaveAccessibleName(/Organisation: Nia Research/)

  // /settings opens the organisation's page.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
  await expect(page).toHaveURL(/\/settings\/organisation$/)
  await expect(page.getByTestId('organisation-slug')).toHaveText(/^nia-research(-\d+)?$/)
  await expect(page.getByTestId('organisation-role')).toHaveText('owner')
  expect(await axeFindings(page, 'organisation settings, owner, dark')).toEqual([])

  const name = page.getByLabel('Name')
  await name.fill('Nia Labs')
  await page.getByRole('button', { name: 'Rename' }).click()
  await expect(page.getByText('Organisation renamed')).toBeVisible()
  await expect(switcher(page)).toHaveAccessibleName(/Organisation: Nia Labs/)

  // Delete: the button does nothing until the name is typed; Escape keeps it.
  const deleteButton = page.getByRole('button', { name: 'Delete organisation' })
  await deleteButton.click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete Nia Labs?' })
  await expect(confirm).toContainText('Its jobs and their runs')
  await expect(confirm).toContainText('environments')
  await expect(confirm).toContainText('Every member loses access')
  expect(await axeFindings(page, 'delete organisation dialog, dark')).toEqual([])
  await page.keyboard.press('Escape')
  await expect(confirm).toHaveCount(0)
  await expect(deleteButton).toBeFocused()

  await deleteButton.click()
  // A name not yet typed in full: the button says it cannot act, and Enter sends nothing.
  const typed = confirm.getByLabel('Type Nia Labs to confirm')
  await typed.fill('Nia')
  await expect(confirm.getByRole('button', { name: 'Delete organisation' })).toHaveAttribute(
    'aria-disabled',
    'true',
  )
  await typed.press('Enter')
  await expect(confirm).toBeVisible()
  await typed.fill('Nia Labs')
  await confirm.getByRole('button', { name: 'Delete organisation' }).click()
  await expect(page).toHaveURL(/\/jobs$/)
  await expect(switcher(page)).toHaveAccessibleName(/Organisation: Nia's workspace/)

  // Their only organisation now: the delete is refused in the dialog, with the server's words.
  await page.goto('/settings/organisation')
  await deleteButton.click()
  const only = page.getByRole('alertdialog', { name: "Delete Nia's workspace?" })
  await only.getByLabel("Type Nia's workspace to confirm").fill("Nia's workspace")
  await only.getByRole('button', { name: 'Delete organisation' }).click()
  await expect(only.getByRole('alert')).toContainText('This is your only organisation')
  await expect(page).toHaveURL(/\/settings\/organisation$/)
  await page.keyboard.press('Escape')
  await deleteButton.click()
  await expect(only.getByLabel("Type Nia's workspace to confirm")).toHaveValue('')
  await expect(only.getByRole('alert')).toHaveCount(0)
})

test('a member sees the name read-only, whom to ask, and no danger zone', async ({ browser }) => {
  const { owner, member } = await ownerAndMember(browser)

  await member.goto('/settings')
  await expect(member).toHaveURL(/\/settings\/organisation$/)
  await expect(member.getByTestId('organisation-name')).toHaveText("Oona's workspace")
  await expect(member.getByTestId('organisation-role')).toHaveText('member')
  await expect(member.getByTestId('rename-ask')).toContainText('ask Oona Owner (owner)')
  await expect(member.getByLabel('Name')).toHaveCount(0)
  await expect(member.getByRole('button', { name: 'Rename' })).toHaveCount(0)
  await expect(member.getByRole('button', { name: 'Delete organisation' })).toHaveCount(0)
  await expect(member.getByText('Danger zone')).toHaveCount(0)
  expect(await axeFindings(member, 'organisation settings, member')).toEqual([])
  await owner.context().close()
  await member.context().close()
})

// A page loaded before the person was removed still lists the organisation: picking it is refused
// (decision 0532, before better-auth runs, in our error shape), the toast says why, and the list
// is read again without it.
test('switching to an organisation one was removed from since is refused in words that say why, staying put', async ({
  browser,
}) => {
  const { owner, member } = await ownerAndMember(browser)
  const origin = { origin: new URL(member.url()).origin }
  const oonasOrg = await activeOrgId(member)
  const orgs = await (await member.request.get('/_agent-native/auth/organization/list')).json()
  const milosOrg = (orgs as { id: string }[]).find((o) => o.id !== oonasOrg)!.id
  const back = await member.request.post('/_agent-native/auth/organization/set-active', {
    data: { organizationId: milosOrg },
    headers: origin,
  })
  expect(back.ok(), await back.text()).toBe(true)
  await member.goto('/jobs')
  await expect(switcher(member)).toHaveAccessibleName(/Organisation: Milo's workspace/)

  const session = await (await member.request.get('/_agent-native/auth/get-session')).json()
  const removed = await owner.request.post('/_agent-native/auth/organization/remove-member', {
    data: { memberIdOrEmail: session.user.email, organizationId: oonasOrg },
    headers: { origin: new URL(owner.url()).origin },
  })
  expect(removed.ok(), await removed.text()).toBe(true)

  await switcher(member).click()
  await member.getByRole('menuitem', { name: /Oona's workspace/ }).click()
  await expect(member.getByText('You are not a member of that organisation')).toBeVisible()
  await expect(switcher(member)).toHaveAccessibleName(/Organisation: Milo's workspace/)
  expect(await activeOrgId(member)).toBe(milosOrg)
  // The list is read again: the organisation is no longer offered.
  await expect(async () => {
    await member.keyboard.press('Escape')
    await switcher(member).click()
    await expect(member.getByRole('menuitem', { name: /Milo's workspace/ })).toBeVisible()
    await expect(member.getByRole('menuitem', { name: /Oona's workspace/ })).toHaveCount(0, { timeout: 1000 })
  }).toPass()
  await owner.context().close()
  await member.context().close()
})

test('on a phone, a tap opens the switcher in the menu, New organisation opens over it, Escape closes only the dialog', async ({
  page,
}) => {
  await page.setViewportSize(VIEWPORTS.phone)
  await signUp(page, 'Pia Phone', uniqueEmail('pia'))
  await page.getByRole('button', { name: 'Menu' }).click()
  const menu = page.getByRole('dialog').filter({ has: switcher(page) })
  // A tap opens the switcher's menu inside the sheet (its focus trap once closed it as it opened).
  await switcher(page).click()
  await page.getByRole('menuitem', { name: 'New organisation' }).click()
  const dialog = page.getByRole('dialog', { name: 'New organisation' })
  await expect(dialog.getByLabel('Name')).toBeFocused()
  expect(await axeFindings(page, 'new organisation dialog, phone')).toEqual([])
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(menu).toBeVisible()
  await expect(switcher(page)).toBeFocused()
  // The account menu beside it opens on a tap too.
  await page.getByRole('button', { name: /^Account:/ }).click()
  await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible()
})
