/**
 * Decision 0505 in the browser: a personal key the provider answered 401 is refused by the server
 * from then on. The chat says so with the way to Settings → Models, the page shows the key refused
 * (readable in light and dark), the notifications say it once, and saving the key again takes the
 * refusal away; a key the provider refuses when it is saved is not stored, and the field says
 * why (decision 0514). Real server, real Postgres, the fake model server refusing those keys.
 */
import { randomBytes } from 'node:crypto'
import { expect } from '@playwright/test'
import { test } from './agent-server.ts'
import { ask, chatPanel, openChat } from './chat.ts'
import { signUp, uniqueEmail } from './helpers.ts'
import { textsBelowAA, useTheme } from './look.ts'

const REVOKED = { status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' }

test('a refused key: the chat points to Settings → Models, which shows it refused until it is saved again', async ({
  page,
  fake,
}) => {
  const key = `sk-ant-revoked-key-${randomBytes(4).toString('hex')}`
  await signUp(page, 'Rafe Refused', uniqueEmail('rafe'))
  await page.goto('/settings/models')
  const personal = page.getByTestId('key-personal')
  await personal.getByLabel('Add your key').fill(key)
  await personal.getByRole('button', { name: 'Save key' }).click()
  await expect(personal.getByTestId('stored-personal')).toHaveText(`••••${key.slice(-4)}`)
  // The key worked when it was saved (its check passed) and is revoked since.
  fake.failKey(key, REVOKED)

  await openChat(page)
  const panel = chatPanel(page)
  await ask(page, 'what runs today?')
  await expect(panel.getByRole('alert')).toContainText('rejected the API key (401)')
  await ask(page, 'and now?')
  const alert = panel.getByRole('alert')
  await expect(alert).toContainText('Your Anthropic key was refused by the provider at')
  // The bell says it too, once, with the same way there.
  await page.goto('/notifications')
  const notice = page.getByRole('listitem').filter({ hasText: 'Your Anthropic key was refused' })
  await expect(notice).toHaveCount(1)
  await expect(notice.getByText('Key refused', { exact: true })).toBeVisible()
  await notice.getByRole('link', { name: 'Open Settings → Models' }).click()

  await expect(page).toHaveURL(/\/settings\/models$/)
  await expect(personal.getByTestId('stored-personal')).toHaveText(`••••${key.slice(-4)} · refused`)
  await expect(personal.getByTestId('refused-personal')).toContainText(
    '(401: invalid x-api-key). Nothing uses it until it is saved again',
  )
  await expect(page.getByTestId('source-chat')).toHaveText(
    'your own key, which the provider refused: calls fail until it is saved again',
  )
  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, theme)
    await page.reload()
    await expect(personal.getByTestId('refused-personal')).toBeVisible()
    expect(await textsBelowAA(page), theme).toEqual([])
  }

  // The provider takes the key again (credit topped up, say): saving it again clears the refusal.
  fake.failKey(key, null)
  await personal.getByLabel('Replace your key').fill(key)
  await personal.getByRole('button', { name: 'Save key' }).click()
  await expect(personal.getByTestId('refused-personal')).toHaveCount(0)
  await expect(personal.getByTestId('stored-personal')).toHaveText(`••••${key.slice(-4)}`)

  // A key the provider refuses when it is saved is not stored: the field says why (decision 0514).
  const mistyped = `sk-ant-mistyped-key-${randomBytes(4).toString('hex')}`
  fake.failKey(mistyped, REVOKED)
  await personal.getByLabel('Replace your key').fill(mistyped)
  await personal.getByRole('button', { name: 'Save key' }).click()
  await expect(personal.getByRole('alert')).toHaveText('Anthropic refused this key (401: invalid x-api-key)')
  await expect(personal.getByTestId('stored-personal')).toHaveText(`••••${key.slice(-4)}`)
})

test('a key saved while the provider does not answer is saved, with a note that it was not checked; note and toast read in dark and light', async ({
  page,
  fake,
}) => {
  const key = `sk-ant-unchecked-key-${randomBytes(4).toString('hex')}`
  fake.failKey(key, { status: 503, errorType: 'overloaded_error', message: 'Overloaded' })
  await signUp(page, 'Uma Unchecked', uniqueEmail('uma'))
  await page.goto('/settings/models')
  await useTheme(page, 'dark')
  await page.reload()
  const personal = page.getByTestId('key-personal')
  await personal.getByLabel('Add your key').fill(key)
  await personal.getByRole('button', { name: 'Save key' }).click()
  await expect(personal.getByTestId('stored-personal')).toHaveText(`••••${key.slice(-4)}`)
  await expect(personal.getByTestId('unchecked-personal')).toContainText(
    'The key was saved, but it could not be checked with the provider (Anthropic answered 503: Overloaded)',
  )
  // The note reads in dark mode, as the page's other notes do, and so does the toast (sonner's
  // toasts were light on a dark page, their green text on pale green below AA).
  await expect(page.getByText('Your key saved')).toBeVisible()
  expect(await textsBelowAA(page)).toEqual([])
  await useTheme(page, 'light')
  await page.reload()
  await personal.getByLabel('Replace your key').fill(key)
  await personal.getByRole('button', { name: 'Save key' }).click()
  await expect(page.getByText('Your key saved')).toBeVisible()
  expect(await textsBelowAA(page)).toEqual([])
})
