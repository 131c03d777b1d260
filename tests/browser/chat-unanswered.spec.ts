/**
 * Decision 0502 in the browser: a message sent after one the model did not answer is added to it
 * on the server, and the chat shows it so at once, one message, not two until the chat is opened
 * again. Real server, real Postgres, the fake model server refusing the first turn.
 */
import { randomBytes } from 'node:crypto'
import { expect } from '@playwright/test'
import { test } from './agent-server.ts'
import { ask, chatPanel, openChat, reopenThread } from './chat.ts'
import { signUp, uniqueEmail } from './helpers.ts'

test('a message sent after an unanswered one shows joined to it, as the thread keeps it', async ({
  page,
  fake,
}) => {
  const tag = randomBytes(3).toString('hex')
  // A key whose account has no credit: the provider refuses the turn with a 400, at no cost.
  fake.replyWhen(
    tag,
    { status: 400, errorType: 'invalid_request_error', message: 'Your credit balance is too low.' },
    { text: `Both answered (${tag}).` },
  )
  await signUp(page, 'Una Answered', uniqueEmail('una'))
  await page.goto('/jobs')
  await openChat(page)
  const panel = chatPanel(page)
  await ask(page, `what runs today? (${tag})`)
  await expect(panel.getByRole('alert')).toContainText('credit balance is too low')

  await ask(page, 'and tomorrow?')
  await expect(panel.getByText(`Both answered (${tag}).`)).toBeVisible()
  const mine = panel.getByTestId('person-message')
  await expect(mine).toHaveCount(1)
  await expect(mine).toHaveText(`what runs today? (${tag})\n\nand tomorrow?`)

  await reopenThread(page, tag)
  await expect(panel.getByText(`Both answered (${tag}).`)).toBeVisible()
  await expect(mine).toHaveCount(1)
  await expect(mine).toHaveText(`what runs today? (${tag})\n\nand tomorrow?`)
})
