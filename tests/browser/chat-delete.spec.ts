/**
 * Decision 0487 in the browser: a chat is deleted from the panel's History with the keyboard only.
 * Each chat has a Delete button after it; it asks in the app's confirmation dialog (Escape keeps
 * the chat and leaves the panel open), the deleted chat leaves the list and stays gone after a
 * reload, and the focus goes to the list rather than the page. Real server, real Postgres, the
 * fake model server.
 */
import { randomBytes } from 'node:crypto'
import { expect } from '@playwright/test'
import { test } from './agent-server.ts'
import { axeFindings } from './axe.ts'
import { ask, chatPanel, openChat } from './chat.ts'
import { signUp, uniqueEmail } from './helpers.ts'

test.describe.configure({ timeout: 120_000 })

test('a chat is deleted from History with the keyboard and is gone', async ({ page }) => {
  const tag = randomBytes(3).toString('hex')
  const [old, kept] = [`an old chat (${tag})`, `a chat to keep (${tag})`]
  await signUp(page, 'Del Eter', uniqueEmail('deleter'))
  await openChat(page)
  const panel = chatPanel(page)
  await ask(page, old)
  await expect(panel.getByTestId('assistant-message')).toHaveCount(1)
  await panel.getByRole('button', { name: 'New chat' }).press('Enter')
  await ask(page, kept)
  await expect(panel.getByTestId('assistant-message')).toHaveCount(1)

  await panel.getByRole('button', { name: 'History' }).press('Enter')
  const chats = panel.getByRole('list', { name: 'Earlier chats' })
  await expect(chats.getByRole('listitem')).toHaveCount(2)
  // The old chat's row: Tab goes from reopening it to its Delete button.
  await chats.getByRole('button', { name: new RegExp(`^an old chat \\(${tag}\\)`) }).focus()
  await page.keyboard.press('Tab')
  const remove = chats.getByRole('button', { name: `Delete “${old}”` })
  await expect(remove).toBeFocused()

  // Escape answers the dialog, not the panel: the chat stays and the panel stays open.
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('alertdialog', { name: 'Delete this chat?' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText(old)
  expect(await axeFindings(page, 'the delete-chat dialog')).toEqual([])
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(panel).toBeVisible()
  await expect(remove).toBeFocused()

  await page.keyboard.press('Enter')
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Delete chat' }).focus()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeHidden()
  await expect(chats.getByRole('listitem')).toHaveCount(1)
  await expect(chats.getByText(old)).toHaveCount(0)
  await expect(chats.getByText(kept)).toBeVisible()
  await expect(panel.getByLabel('Chat history')).toBeFocused()

  // Gone on the server too: a reload's History lists only the kept chat.
  await page.reload()
  await openChat(page)
  await panel.getByRole('button', { name: 'History' }).press('Enter')
  await expect(chats.getByRole('listitem')).toHaveCount(1)
  await expect(chats.getByText(kept)).toBeVisible()
  await expect(chats.getByText(old)).toHaveCount(0)
})
