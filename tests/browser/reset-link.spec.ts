/**
 * A way back in without email (issue 26 item 8): on Settings → Members an owner makes a one-time
 * reset link for a member, copies it, and the member (in a browser of their own, signed out) opens
 * it, chooses a new password and signs in with it. The link is listed under Account help.
 */
import { expect, test } from '@playwright/test'
import { axeFindings } from './axe.ts'
import { signUp, uniqueEmail } from './helpers.ts'
import { joinOrganisation } from './org.ts'

test.describe.configure({ timeout: 180_000 })

test('an owner makes a reset link on the members page and the member gets back in with it', async ({
  browser,
}) => {
  const ownerContext = await browser.newContext()
  const memberContext = await browser.newContext()
  const owner = await ownerContext.newPage()
  const member = await memberContext.newPage()
  const memberEmail = uniqueEmail('rosa')
  await signUp(owner, 'Olga Owner', uniqueEmail('olga'))
  await signUp(member, 'Rosa Member', memberEmail)
  await joinOrganisation(owner, member, memberEmail, 'member')

  await owner.goto('/settings/members')
  const row = owner.getByRole('row').filter({ hasText: 'Rosa Member' })
  await row.getByRole('button', { name: 'Reset link' }).click()
  const ready = owner.getByTestId('reset-link')
  await expect(ready).toContainText('Reset link for Rosa Member ready')
  const link = await ready.getByRole('textbox').inputValue()
  expect(link).toMatch(/\/reset-password\?token=/)
  await expect(owner.getByTestId('member-audit')).toContainText(
    'Olga Owner made a password reset link for Rosa Member',
  )
  // The owner's own row has no button: their own password is changed on the profile page.
  await expect(
    owner.getByRole('row').filter({ hasText: 'Olga Owner' }).getByRole('button', { name: 'Reset link' }),
  ).toHaveCount(0)

  // The member has forgotten their password: signed out, they open the link.
  await memberContext.clearCookies()
  await member.goto(link)
  await expect(member.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
  // Reached only through such a link, so axe reads the page here (decision 0412).
  expect(await axeFindings(member, 'the reset page')).toEqual([])
  await member.getByLabel('New password').fill('a-fresh-password-1')
  await member.getByLabel('Repeat it').fill('a-fresh-password-1')
  await member.getByRole('button', { name: 'Save new password' }).click()
  await expect(member).toHaveURL(/\/sign-in\?reset=done/)
  await member.getByLabel('Email').fill(memberEmail)
  await member.getByLabel('Password').fill('a-fresh-password-1')
  await member.getByRole('button', { name: 'Sign in' }).click()
  await expect(member).toHaveURL(/\/jobs/, { timeout: 60_000 })

  await ownerContext.close()
  await memberContext.close()
})
