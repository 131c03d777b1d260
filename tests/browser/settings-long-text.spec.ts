/**
 * Settings with long text, on a laptop and a phone: a 60-character name and long email addresses
 * (a member's, an invitation's) wrap inside their cards instead of pushing the role, Reset link,
 * Remove and Cancel controls past the card's edge or the screen's, and the model's facts fit their
 * card on a phone.
 */
import { expect, test, type Locator } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'
import { expectWhole, sidewaysScroll, VIEWPORTS } from './look.ts'
import { activeOrgId, joinOrganisation } from './org.ts'

// Two sign-ups on a busy machine.
test.describe.configure({ timeout: 120_000 })

const OWNER = 'Bartholomew Alexander Montgomery-Fitzwilliam the Third Esq.'
const MEMBER = 'Cornelia Wilhelmina Vandersloot-Oppenheimer de la Tour'
const longEmail = (who: string) => uniqueEmail(`${who}.with.a.rather.long.address.for.layouts`)

/** The element's box lies inside the other's (both rendered): nothing of it is cut off there. */
async function expectInside(inner: Locator, outer: Locator) {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()]
  expect(a, 'not rendered').not.toBeNull()
  expect(a!.x).toBeGreaterThanOrEqual(b!.x)
  expect(a!.x + a!.width, 'past the right edge of its card').toBeLessThanOrEqual(b!.x + b!.width + 0.5)
}

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test(`Settings fit long names and emails on a ${size}`, async ({ page, browser, baseURL }) => {
    await page.setViewportSize(viewport)
    const memberEmail = longEmail('cornelia')
    const member = await browser.newPage()
    await signUp(member, MEMBER, memberEmail)
    await signUp(page, OWNER, longEmail('bartholomew'))
    await joinOrganisation(page, member, memberEmail, 'member')
    await member.close()
    const pending = longEmail('pending')
    const invited = await page.request.post('/_agent-native/auth/organization/invite-member', {
      headers: { origin: baseURL! },
      data: { email: pending, role: 'admin', organizationId: await activeOrgId(page) },
    })
    expect(invited.ok()).toBe(true)

    await page.goto('/settings/members')
    const table = page.getByRole('table').filter({ hasText: 'Members (2)' })
    const card = table.locator('..')
    const row = table.getByRole('row').filter({ hasText: MEMBER })
    const role = row.getByRole('combobox', { name: `Role of ${MEMBER}` })
    await expect(role).toHaveValue('member')
    await expectWhole(card)
    // The role reads whole ("member", not "m"), and every control of the row is inside the card.
    expect((await role.boundingBox())!.width).toBeGreaterThanOrEqual(96)
    for (const control of [
      role,
      row.getByRole('button', { name: 'Reset link' }),
      row.getByRole('button', { name: 'Remove' }),
    ]) {
      await expectInside(control, card)
    }
    const invitation = page.getByRole('listitem').filter({ hasText: pending })
    await expectInside(
      invitation.getByRole('button', { name: `Cancel the invitation of ${pending}` }),
      invitation,
    )
    expect(await sidewaysScroll(page)).toEqual({ page: 0, boxes: [] })

    await page.goto('/settings/models')
    const facts = page.getByRole('heading', { name: 'Model in use' }).locator('..')
    await expectWhole(facts)
    // A deployment's provider address (https://api.anthropic.com) or model id is one long word; the
    // test server's fake provider has a short one, so measure the room a value gets: on a phone,
    // beside a 10rem label it had 132 px and such a word ran out of the card; under it, the card's width.
    if (size === 'phone') {
      const dl = await facts.locator('dl').boundingBox()
      expect((await facts.locator('dd').first().boundingBox())!.width).toBeGreaterThan(dl!.width * 0.9)
    }
    expect(await sidewaysScroll(page)).toEqual({ page: 0, boxes: [] })
  })
}
