/**
 * Decision 0505 in the browser: a personal key the provider answered 401 is refused by the server
 * from then on. The chat says so with the way to Settings → Models, the page shows the key refused
 * (readable in light and dark), the notifications say it once, and saving the key again takes the
 * refusal away. Real server, real Postgres, the fake model server refusing that one key.
 */
import { randomBytes } from 'node:crypto'
import { expect } from '@playwright/test'
import { test } from './agent-server.ts'
import { ask, chatPanel, openChat } from './chat.ts'
import { signUp, uniqueEmail } from './helpers.ts'
import { textsBelowAA, useTheme } from './look.ts'

test('a refused key: the chat points to Settings → Models, which shows it refused until it is saved again', async ({
  page,
  fake,
}) => {
  const key = `sk-ant-not-a-key-${randomBytes(4).toString('hex')}`
  fake.failKey(key, { status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' })
  await signUp(page, 'Rafe Refused', uniqueEmail('rafe'))
  await page.goto('/settings/models')
  const personal = page.getByTestId('key-personal')
  await personal.getByLabel('Add your key').fill(key)
  await personal.getByRole('button', { name: 'Save key' }).click()
  await expect(personal.getByTestId('stored-personal')).toHaveText(`••••${key.slice(-4)}`)

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

  await personal.getByLabel('Replace your key').fill(key)
  await personal.getByRole('button', { name: 'Save key' }).click()
  await expect(personal.getByTestId('refused-personal')).toHaveCount(0)
  await expect(personal.getByTestId('stored-personal')).toHaveText(`••••${key.slice(-4)}`)
})
