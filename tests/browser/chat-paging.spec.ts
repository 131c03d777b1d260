/**
 * Decision 0462 in the browser: a reopened long thread shows its latest page with an "Earlier
 * messages" button that reads the pages before without moving the view, and a thread filled to its
 * limit answers the next message with the limit and a "New chat" way out. Real server, real
 * Postgres (the thread is filled directly, as weeks of chatting would), the fake model server.
 */
import { randomBytes } from 'node:crypto'
import { expect, type Locator, type Page } from '@playwright/test'
import postgres from 'postgres'
import { HISTORY_MAX_MESSAGES, MAX_THREAD_MESSAGES } from '#server/agent/thread-bounds.ts'
import { THREAD_PAGE_MESSAGES } from '#server/agent/threads.ts'
import { test } from './agent-server.ts'
import { axeFindings } from './axe.ts'
import { ask, chatPanel, openChat, reopenThread } from './chat.ts'
import { signUp, uniqueEmail } from './helpers.ts'
import { contrastOf, useTheme } from './look.ts'

/**
 * The live region `locator`'s element is read out from, if any: an ancestor (or itself) that a
 * screen reader announces changes of. Null when what is added there is shown, never read out.
 */
const liveRegionOf = (locator: Locator) =>
  locator.evaluate((el) => {
    const live = el.closest(
      '[aria-live]:not([aria-live="off"]), [role="log"], [role="status"], [role="alert"], [role="marquee"], [role="timer"]',
    )
    return live ? (live.getAttribute('role') ?? `aria-live=${live.getAttribute('aria-live')}`) : null
  })

// Sign-up, model calls and a few hundred stored messages rendered on a busy machine.
test.describe.configure({ timeout: 120_000 })

/**
 * Signs up `name` in the dark theme and starts a chat with one real turn (messages 0 and 1), then
 * stores messages 2..`total - 1` straight into its thread (a question `q<seq>` at even places, an
 * answer `a<seq>` at odd ones) and reopens it from History. Answers the chat's tag.
 */
async function reopenLongThread(page: Page, databaseUrl: string, name: string, total: number) {
  const tag = randomBytes(3).toString('hex')
  await signUp(page, name, uniqueEmail(name.split(' ')[0]!))
  await useTheme(page, 'dark')
  await openChat(page)
  await ask(page, `start of a long chat (${tag})`)
  await expect(chatPanel(page).getByTestId('assistant-message')).toHaveCount(1)
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  try {
    // The reply shows before it is stored: wait for both, or it would be stored after the fill.
    let threadId = ''
    await expect
      .poll(async () => {
        const [thread] = await sql<{ id: string; n: number }[]>`
          select thread_id as id, (select count(*)::int from agent_messages m where m.thread_id = q.thread_id) as n
          from agent_messages q where parts::text like ${`%(${tag})%`} limit 1`
        threadId = thread?.id ?? ''
        return thread?.n
      })
      .toBe(2)
    await sql`insert into agent_messages (id, thread_id, seq, role, parts)
      select 'msg_fill_' || ${threadId} || '_' || g, ${threadId}, g,
        case when g % 2 = 0 then 'user' else 'assistant' end,
        jsonb_build_array(jsonb_build_object('type', 'text', 'text',
          case when g % 2 = 0 then 'q' || g else 'a' || g end))
      from generate_series(2, ${total - 1}::int) as g`
  } finally {
    await sql.end()
  }
  await reopenThread(page, tag)
  return tag
}

test('a reopened long thread shows its latest page and reads earlier ones in place (dark)', async ({
  page,
  server,
}) => {
  const total = 2.5 * THREAD_PAGE_MESSAGES // the latest page, one full page before it, and half a page
  const tag = await reopenLongThread(page, server.databaseUrl, 'Pag Ing', total)

  const panel = chatPanel(page)
  const message = (text: string) => panel.getByText(text, { exact: true })
  const firstShown = `q${total - THREAD_PAGE_MESSAGES}`
  // The latest page, at its end: the newest message in view, nothing before the page loaded.
  await expect(message(`a${total - 1}`)).toBeInViewport()
  await expect(message(firstShown)).toHaveCount(1)
  await expect(message(`a${total - THREAD_PAGE_MESSAGES - 1}`)).toHaveCount(0)
  const earlier = panel.getByRole('button', { name: 'Earlier messages' })
  await expect(earlier).toBeVisible()
  expect(await contrastOf(earlier), 'dark: Earlier messages').toBeGreaterThanOrEqual(4.5)

  // From the keyboard: the page before shows above, and the view stays where it was.
  await earlier.focus()
  await expect(message(firstShown)).toBeInViewport()
  await page.keyboard.press('Enter')
  await expect(message(`a${total - THREAD_PAGE_MESSAGES - 1}`)).toHaveCount(1)
  await expect(message(`q${total - 2 * THREAD_PAGE_MESSAGES}`)).toHaveCount(1)
  await expect(message('q0')).toHaveCount(0)
  await expect(message(firstShown)).toBeInViewport()
  await expect(message(`a${total - 1}`)).not.toBeInViewport()
  // A screen reader is told how many came, not read the page: it lands outside every live region,
  // as the stored messages did, and a status line says what happened.
  expect(await liveRegionOf(message(`a${total - THREAD_PAGE_MESSAGES - 1}`))).toBeNull()
  expect(await liveRegionOf(message(`a${total - 1}`))).toBeNull()
  const status = panel.getByTestId('chat-earlier-status')
  await expect(status).toHaveRole('status')
  await expect(status).toHaveText(`Loaded ${THREAD_PAGE_MESSAGES} earlier messages`)

  // The last page (the focus is still on the button): the thread's first question shows, the
  // button goes away and the view again stays put.
  await expect(earlier).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(panel.getByText(`start of a long chat (${tag})`)).toHaveCount(1)
  await expect(message('q2')).toHaveCount(1)
  await expect(earlier).toHaveCount(0)
  await expect(status).toHaveText(
    `Loaded ${THREAD_PAGE_MESSAGES / 2} earlier messages, back to the start of this chat`,
  )
  expect(await liveRegionOf(message('q2'))).toBeNull()
  // The focus does not fall to the page (where the next Tab starts over): it stays in the log.
  await expect(panel.getByTestId('chat-log')).toBeFocused()
  await expect(message(firstShown)).toBeInViewport()
  expect(await axeFindings(page, 'dark: a long thread, all pages read')).toEqual([])
})

const NO_LONGER_SEEN = 'The assistant no longer sees the messages above'

test('a long thread marks the oldest message the assistant still sees; a short one does not (dark)', async ({
  page,
  server,
}) => {
  const total = 200
  const tag = await reopenLongThread(page, server.databaseUrl, 'Win Dow', total)
  const panel = chatPanel(page)
  // The next turn sends the question and the latest 59 stored messages, cut to start at a question.
  const oldestSeen = `q${total - HISTORY_MAX_MESSAGES + 2}`
  const divider = panel.getByTestId('history-start')
  await expect(divider).toHaveCount(1)
  await expect(divider).toHaveText(NO_LONGER_SEEN)
  await expect(panel.locator('[data-testid="history-start"] + *')).toHaveText(oldestSeen)
  await expect(divider.locator('xpath=preceding-sibling::*[1]')).toHaveText(
    `a${total - HISTORY_MAX_MESSAGES + 1}`,
  )
  // Plain text in the log, read in order and reached by scrolling the log from the keyboard.
  await panel.getByTestId('chat-log').focus()
  await page.keyboard.press('End')
  await divider.scrollIntoViewIfNeeded()
  await expect(panel.getByText(NO_LONGER_SEEN)).toBeVisible()
  expect(await contrastOf(divider), 'dark: the divider').toBeGreaterThanOrEqual(4.5)
  expect(await axeFindings(page, 'dark: a long thread with its divider')).toEqual([])

  // A turn's reply says where that turn began: the mark stays on the message it sent first.
  await ask(page, `what did I say first? (${tag})`)
  await expect(panel.getByTestId('assistant-message')).toHaveCount(THREAD_PAGE_MESSAGES / 2 + 1)
  await expect(divider).toHaveCount(1)
  await expect(panel.locator('[data-testid="history-start"] + *')).toHaveText(oldestSeen)

  // A short thread has nothing the assistant no longer sees: no mark after a turn, nor reopened.
  await panel.getByRole('button', { name: 'New chat' }).first().click()
  await ask(page, `a short chat (${tag})`)
  await expect(panel.getByTestId('assistant-message')).toHaveCount(1)
  await expect(divider).toHaveCount(0)
  await reopenThread(page, `a short chat \\(${tag}\\)`)
  await expect(panel.getByText(`a short chat (${tag})`)).toBeVisible()
  await expect(panel.getByTestId('assistant-message')).toHaveCount(1)
  await expect(divider).toHaveCount(0)
})

test('a full thread answers with its limit and a "New chat" that starts an empty chat (dark)', async ({
  page,
  server,
  fake,
}) => {
  const tag = await reopenLongThread(page, server.databaseUrl, 'Phil Full', MAX_THREAD_MESSAGES)

  const panel = chatPanel(page)
  await expect(panel.getByText(`a${MAX_THREAD_MESSAGES - 1}`, { exact: true })).toBeVisible()
  await ask(page, `one more please (${tag})`)
  const alert = panel.getByRole('alert')
  await expect(alert).toContainText(
    `This chat has reached its limit of ${MAX_THREAD_MESSAGES} messages. Start a new chat to go on.`,
  )
  const newChat = alert.getByRole('button', { name: 'New chat' })
  await expect(newChat).toBeVisible()
  // Retrying would be refused again: the way on is a new chat, not Retry.
  await expect(alert.getByRole('button', { name: 'Retry' })).toHaveCount(0)
  expect(await contrastOf(alert), 'dark: the limit message').toBeGreaterThanOrEqual(4.5)
  expect(await contrastOf(newChat), 'dark: New chat').toBeGreaterThanOrEqual(4.5)
  expect(await axeFindings(page, 'dark: a full thread refused')).toEqual([])

  // From the keyboard: an empty chat in which a message is answered.
  await newChat.focus()
  await page.keyboard.press('Enter')
  await expect(panel.getByRole('alert')).toHaveCount(0)
  await expect(panel.getByText('Ask for a job in plain words')).toBeVisible()
  await expect(panel.getByText(`a${MAX_THREAD_MESSAGES - 1}`, { exact: true })).toHaveCount(0)
  fake.replyWhen(`fresh start (${tag})`, { text: `A fresh answer (${tag}).` })
  await ask(page, `fresh start (${tag})`)
  await expect(panel.getByText(`A fresh answer (${tag}).`)).toBeVisible()
  await expect(panel.getByRole('alert')).toHaveCount(0)
  // What this session adds is read out: the person's message and the reply, in the log.
  expect(await liveRegionOf(panel.getByText(`fresh start (${tag})`, { exact: true }))).toBe('log')
  expect(await liveRegionOf(panel.getByText(`A fresh answer (${tag}).`))).toBe('log')
})
