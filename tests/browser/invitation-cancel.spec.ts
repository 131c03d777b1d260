import { expect, test } from '@playwright/test'
import { signUp, uniqueEmail } from './helpers.ts'

// Sign-up and two saves on a busy machine take more than the default 60 s together.
test.describe.configure({ timeout: 120_000 })

test('Settings → Members: Cancel says "Cancelling…" and takes no second click while it is out', async ({
  page,
}) => {
  await signUp(page, 'Ivy Inviter', uniqueEmail('ivy'))
  await page.goto('/settings/members')
  const email = uniqueEmail('guest')
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Create invite link' }).click()
  const invitation = page.getByRole('listitem').filter({ hasText: email })
  const cancel = invitation.getByRole('button', { name: /Cancel/ })
  await expect(cancel).toHaveText('Cancel')

  // Hold the cancellation at the network until the pending state has been seen.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/settings/members*', async (route) => {
    if (route.request().postData()?.includes('cancel-invitation')) await held
    await route.continue()
  })
  await cancel.click()
  await expect(cancel).toHaveText('Cancelling…')
  await expect(cancel).toBeDisabled()
  release()
  await expect(invitation).toHaveCount(0)
  await expect(page.getByText('No pending invitations')).toBeVisible()
})
