/** The chat panel as the chat specs drive it: open it, ask, and reopen a stored thread. */
import { expect, type Page } from '@playwright/test'

export const chatPanel = (page: Page) => page.getByRole('complementary', { name: 'Agent chat' })

export async function openChat(page: Page) {
  await expect(page.getByRole('button', { name: 'Ask the agent' })).toHaveAttribute('data-ready', 'true')
  await page.keyboard.press('Control+j')
  await expect(chatPanel(page)).toBeVisible()
}

/** The chat in History whose title holds `tag`: itself, not its Delete button, whose name holds the title too. */
export const historyChat = (page: Page, tag: string) =>
  chatPanel(page).getByRole('button', { name: new RegExp(`^(?!Delete “).*${tag}`) })

/** Reloads the page and reopens the chat whose title holds `tag` from the panel's History. */
export async function reopenThread(page: Page, tag: string) {
  await page.reload()
  await openChat(page)
  await chatPanel(page).getByRole('button', { name: 'History' }).click()
  await historyChat(page, tag).click()
}

export async function ask(page: Page, text: string) {
  const input = chatPanel(page).getByLabel('Message the agent')
  await input.fill(text)
  await input.press('Enter')
}
