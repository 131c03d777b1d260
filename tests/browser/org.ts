/**
 * Organisation set-up for browser tests, over better-auth's own HTTP endpoints with each person's
 * browser cookies (the same calls the members page and the invitation page make).
 */
import { expect, type Browser, type Page } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

/** The active organisation of the signed-in person on `page`. */
export async function activeOrgId(page: Page): Promise<string> {
  const res = await page.request.get('/_agent-native/auth/get-session')
  expect(res.ok()).toBe(true)
  const body = await res.json()
  return body.session.activeOrganizationId as string
}

async function post(page: Page, path: string, data: Record<string, unknown>) {
  // better-auth checks the Origin of cookie-authenticated POSTs.
  const origin = new URL(page.url()).origin
  const res = await page.request.post(`/_agent-native/auth${path}`, { data, headers: { origin } })
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true)
  return res.json()
}

/**
 * Invites `member` (already signed up on their page) into the owner's organisation with `role`,
 * accepts as them and makes it their active organisation.
 */
export async function joinOrganisation(owner: Page, member: Page, email: string, role: 'member' | 'admin') {
  const organizationId = await activeOrgId(owner)
  const invitation = await post(owner, '/organization/invite-member', { email, role, organizationId })
  await post(member, '/organization/accept-invitation', { invitationId: invitation.id })
  await post(member, '/organization/set-active', { organizationId })
}

/** Oona owns her workspace and Milo is a member of it, each signed in on a page (and browser) of their own. */
export async function ownerAndMember(browser: Browser) {
  const owner = await (await browser.newContext()).newPage()
  await signUp(owner, 'Oona Owner', uniqueEmail('oona'))
  const member = await (await browser.newContext()).newPage()
  const memberEmail = uniqueEmail('milo')
  await signUp(member, 'Milo Member', memberEmail)
  await joinOrganisation(owner, member, memberEmail, 'member')
  return { owner, member }
}
