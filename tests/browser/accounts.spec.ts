import { expect, test } from '@playwright/test'
import { axeFindings } from './axe.ts'
import { signUp, uniqueEmail } from './helpers.ts'

test('sign up, land in the app, invite a member who accepts, and see the roles', async ({ browser }) => {
  const ownerContext = await browser.newContext()
  const owner = await ownerContext.newPage()
  await signUp(owner, 'Ana Lima', uniqueEmail('ana'))
  await expect(owner.getByRole('heading', { name: 'Jobs', exact: true })).toBeVisible()
  await expect(owner.getByRole('button', { name: /Organisation: Ana's workspace/ })).toBeVisible()

  // Settings opens on the organisation's own page; Members is the next tab.
  await owner.getByRole('link', { name: 'Settings' }).click()
  await expect(owner).toHaveURL(/\/settings\/organisation$/)
  await owner.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' }).click()
  await expect(owner).toHaveURL(/\/settings\/members/)
  const bobEmail = uniqueEmail('bob')
  await owner.getByLabel('Email').fill(bobEmail)
  await owner.getByRole('button', { name: 'Create invite link' }).click()
  const link = await owner.getByTestId('invite-link').getByRole('textbox').inputValue()
  expect(link).toMatch(/\/accept-invitation\//)

  // The invited person, in a browser of their own.
  const memberContext = await browser.newContext()
  const member = await memberContext.newPage()
  await member.goto(link)
  // The invitation's page is reached only through a link like this one, so axe reads it here
  // (decision 0412), signed out and then signed in.
  await expect(member.getByRole('link', { name: 'Create account' })).toBeVisible()
  expect(await axeFindings(member, 'the invitation, signed out')).toEqual([])
  await member.getByRole('link', { name: 'Create account' }).click()
  await member.getByLabel('Name').fill('Bob Berg')
  await member.getByLabel('Email').fill(bobEmail)
  await member.getByLabel('Password').fill('password1234')
  await member.getByRole('button', { name: 'Create account' }).click()
  await expect(member.getByRole('heading', { name: 'You have been invited' })).toBeVisible()
  expect(await axeFindings(member, 'the invitation, signed in')).toEqual([])
  await member.getByRole('button', { name: "Join Ana's workspace" }).click()
  await expect(member).toHaveURL(/\/jobs/)
  // Read as the switcher's name, so a failure says which organisation the member landed in.
  await expect(member.getByRole('button', { name: /^Organisation:/ })).toHaveAccessibleName(
    /Organisation: Ana's workspace/,
  )

  // The member sees roles read-only; the owner sees the member and can change the role.
  await member.goto('/settings/members')
  await expect(member.getByTestId(`role-${bobEmail}`)).toHaveText('member')
  await expect(member.getByRole('button', { name: 'Create invite link' })).toHaveCount(0)

  await owner.reload()
  const roleSelect = owner.getByLabel('Role of Bob Berg')
  await expect(roleSelect).toHaveValue('member')
  await roleSelect.selectOption('admin')
  await expect(owner.getByText('Role updated for Bob Berg')).toBeVisible()
  await member.reload()
  await expect(member.getByTestId(`role-${bobEmail}`)).toHaveText('admin')
  await expect(member.getByRole('button', { name: 'Create invite link' })).toBeVisible()

  await ownerContext.close()
  await memberContext.close()
})

test('keyboard users can reach the main content and the organisation switcher', async ({ page }) => {
  await signUp(page, 'Kim Keys', uniqueEmail('kim'))
  // A fresh load, so focus starts at the top of the document rather than where sign-up left it.
  await page.goto('/jobs')
  await expect(page.getByRole('button', { name: /Organisation:/ })).toBeVisible()
  await page.locator('body').focus()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: /Organisation:/ })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('menu')).toBeVisible()
  await page.keyboard.press('Escape')
})

// The server checks a sign-up's fields before better-auth runs (decision 0532) and answers in our
// error shape; the form says what it said, not a guess.
test('a sign-up the server refuses says why on the form', async ({ page }) => {
  await page.goto('/sign-up')
  await page.getByLabel('Name').fill('N'.repeat(101))
  await page.getByLabel('Email').fill(uniqueEmail('nell'))
  await page.getByLabel('Password').fill('password1234')
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('alert')).toHaveText('name: must be at most 100 characters')
  await expect(page).toHaveURL(/\/sign-up$/)
})
