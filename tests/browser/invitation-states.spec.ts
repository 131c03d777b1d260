/**
 * The invitation page says what happened to the invitation and what to do next, for each way it
 * can be opened: by another account, after it was accepted, cancelled or left to expire, or at a
 * link that names none. Each state is read by axe and for overflow on a laptop and a phone, light
 * and dark (the page is reached only through such links, so the axe walk cannot: decision 0412).
 */
import { expect, test, type Browser, type Page } from '@playwright/test'
import postgres from 'postgres'
import { axeFindings } from './axe.ts'
import { signUp, uniqueEmail } from './helpers.ts'
import { activeOrgId } from './org.ts'
import { sidewaysScroll, textsBelowAA, useTheme } from './look.ts'

// Sign-ups hash passwords on a busy machine.
test.describe.configure({ timeout: 150_000 })

const SIZES = { laptop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } }

/** Ana, owner of her workspace, invites `email`; returns her page and the invitation's id. */
async function anaInvites(browser: Browser, email: string) {
  const ana = await (await browser.newContext()).newPage()
  await signUp(ana, 'Ana Lima', uniqueEmail('ana'))
  const origin = new URL(ana.url()).origin
  const res = await ana.request.post('/_agent-native/auth/organization/invite-member', {
    data: { email, role: 'member', organizationId: await activeOrgId(ana) },
    headers: { origin },
  })
  expect(res.ok()).toBe(true)
  return { ana, invitationId: ((await res.json()) as { id: string }).id }
}

/** The page at each size and theme: nothing axe or our contrast scan finds, nothing sideways. */
async function expectReadable(page: Page, heading: string) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    for (const theme of ['light', 'dark'] as const) {
      await page.setViewportSize(viewport)
      await useTheme(page, theme)
      await page.reload()
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
      const where = `${heading}, ${size}, ${theme}`
      expect(await axeFindings(page, where)).toEqual([])
      expect(await textsBelowAA(page), where).toEqual([])
      expect(await sidewaysScroll(page), where).toEqual({ page: 0, boxes: [] })
    }
  }
}

test('signed in with another address: the page says so and signs out to come back', async ({ browser }) => {
  const bobEmail = uniqueEmail('bob')
  const { invitationId } = await anaInvites(browser, bobEmail)
  const other = await (await browser.newContext()).newPage()
  const otherEmail = uniqueEmail('a-rather-long-address-of-someone-else-entirely')
  await signUp(other, 'Olga Other', otherEmail)
  await other.goto(`/accept-invitation/${invitationId}`)
  const heading = 'This invitation is for another email address'
  await expect(other.getByRole('heading', { level: 1 })).toHaveText(heading)
  await expect(other.getByRole('main')).toContainText(`You are signed in as ${otherEmail}`)
  // Nothing about the invitation itself reaches an account it was not sent to.
  await expect(other.getByRole('main')).not.toContainText("Ana's workspace")
  await expect(other.getByRole('main')).not.toContainText(bobEmail)
  await expectReadable(other, heading)

  await other.getByRole('button', { name: 'Sign out and sign in again' }).click()
  await expect(other).toHaveURL(/\/sign-in\?redirectTo=/)
})

test('an invitation already accepted offers the organisation it joined', async ({ browser }) => {
  const bobEmail = uniqueEmail('bob')
  const { ana, invitationId } = await anaInvites(browser, bobEmail)
  const bob = await (await browser.newContext()).newPage()
  await signUp(bob, 'Bob Berg', bobEmail)
  await bob.goto(`/accept-invitation/${invitationId}`)
  await bob.getByRole('button', { name: "Join Ana's workspace" }).click()
  await expect(bob).toHaveURL(/\/jobs/)
  // Back in his own workspace, Bob opens the link again.
  const own = (await bob.request.get('/_agent-native/auth/organization/list').then((r) => r.json())) as {
    id: string
    name: string
  }[]
  const bobs = own.find((o) => o.name !== "Ana's workspace")!
  await bob.request.post('/_agent-native/auth/organization/set-active', {
    data: { organizationId: bobs.id },
    headers: { origin: new URL(bob.url()).origin },
  })
  await bob.goto(`/accept-invitation/${invitationId}`)
  const heading = 'You already accepted this invitation'
  await expect(bob.getByRole('heading', { level: 1 })).toHaveText(heading)
  await expectReadable(bob, heading)
  await bob.getByRole('button', { name: "Go to Ana's workspace" }).click()
  await expect(bob).toHaveURL(/\/jobs/)
  // The page is at phone size by now, where the organisation switcher is behind the menu.
  expect(await activeOrgId(bob)).toBe(await activeOrgId(ana))
})

test('a cancelled, an expired and a missing invitation each say so and whom to ask', async ({ browser }) => {
  const bobEmail = uniqueEmail('bob')
  const { ana, invitationId } = await anaInvites(browser, bobEmail)
  const bob = await (await browser.newContext()).newPage()
  await signUp(bob, 'Bob Berg', bobEmail)

  await ana.goto('/settings/members')
  await ana.getByRole('button', { name: `Cancel the invitation of ${bobEmail}` }).click()
  await expect(ana.getByText('No pending invitations')).toBeVisible()
  await bob.goto(`/accept-invitation/${invitationId}`)
  await expect(bob.getByRole('heading', { level: 1 })).toHaveText('This invitation was cancelled')
  await expect(bob.getByRole('main')).toContainText("ask an admin of Ana's workspace for a new invitation")
  await expectReadable(bob, 'This invitation was cancelled')

  const { invitationId: second } = await anaInvites(browser, bobEmail)
  const sql = postgres(process.env.E2E_DATABASE_URL!, { max: 1, onnotice: () => {} })
  try {
    await sql`update invitation set expires_at = now() - interval '1 day' where id = ${second}`
  } finally {
    await sql.end()
  }
  await bob.goto(`/accept-invitation/${second}`)
  await expect(bob.getByRole('heading', { level: 1 })).toHaveText('This invitation has expired')
  await expect(bob.getByRole('main')).toContainText("ask an admin of Ana's workspace for a new invitation")
  await expectReadable(bob, 'This invitation has expired')

  await bob.goto('/accept-invitation/no-such-invitation')
  await expect(bob.getByRole('heading', { level: 1 })).toHaveText('No invitation at this link')
  await expectReadable(bob, 'No invitation at this link')
})
