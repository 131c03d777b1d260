import { randomBytes } from 'node:crypto'
import { expect } from '@playwright/test'
import { test } from './agent-server.ts'
import { ask, chatPanel, openChat, reopenThread } from './chat.ts'
import { signUp, uniqueEmail } from './helpers.ts'
import { contrastOf, useTheme, VIEWPORTS } from './look.ts'

// Sign-up, two themes and model calls (one waits out two retries) on a busy machine.
test.describe.configure({ timeout: 120_000 })

const REPLY = (tag: string) =>
  [
    `# Weekly summary ${tag}`,
    '',
    '## Sign-ups',
    '',
    '| day | count |',
    '| --- | ---: |',
    '| Mon | 12 |',
    '| Tue | 7 |',
    '',
    '```',
    'SELECT count(*) FROM signups;',
    '```',
  ].join('\n')

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test(`chat renders headings, tables and code as Markdown, in light and dark (${size})`, async ({
    page,
    fake,
  }) => {
    await page.setViewportSize(viewport)
    const tag = randomBytes(3).toString('hex')
    fake.replyWhen(tag, { text: REPLY(tag) })
    await signUp(page, 'Mark Down', uniqueEmail('mark'))
    await openChat(page)
    await ask(page, `the weekly summary please (${tag})`)
    const reply = chatPanel(page).getByTestId('assistant-message').last()
    const heading = reply.getByRole('heading', { level: 1, name: `Weekly summary ${tag}` })
    await expect(heading).toBeVisible()
    await expect(reply.getByRole('heading', { level: 2, name: 'Sign-ups' })).toBeVisible()
    // A heading looks like one: larger and bolder than the text.
    const size = (sel: string) =>
      reply
        .locator(sel)
        .first()
        .evaluate((el) => getComputedStyle(el).fontSize)
    expect(parseFloat(await size('h1'))).toBeGreaterThan(parseFloat(await size('td')))
    const table = reply.getByRole('table')
    await expect(table.getByRole('columnheader')).toHaveText(['day', 'count'])
    await expect(table.getByRole('row')).toHaveCount(3)
    await expect(table.getByRole('row').nth(1).getByRole('cell')).toHaveText(['Mon', '12'])
    // Cells are apart and ruled, not run together ("day count", never "daycount").
    const [left, right] = await table
      .getByRole('columnheader')
      .evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().toJSON() as DOMRect))
    expect(right!.x).toBeGreaterThanOrEqual(left!.x + left!.width - 1)
    const cell = table.getByRole('cell', { name: 'Mon' })
    expect(parseFloat(await cell.evaluate((el) => getComputedStyle(el).paddingLeft))).toBeGreaterThanOrEqual(
      4,
    )
    expect(parseFloat(await cell.evaluate((el) => getComputedStyle(el).borderLeftWidth))).toBeGreaterThan(0)
    await expect(reply.locator('pre')).toHaveText('SELECT count(*) FROM signups;')

    // Readable in both themes (the thread reopens from History after the reload).
    for (const theme of ['light', 'dark'] as const) {
      await useTheme(page, theme)
      await reopenThread(page, tag)
      const again = chatPanel(page).getByTestId('assistant-message').last()
      await expect(again.getByRole('heading', { level: 1 })).toBeVisible()
      for (const part of [
        again.getByRole('heading', { level: 1 }),
        again.getByRole('columnheader', { name: 'day' }),
        again.getByRole('cell', { name: 'Mon' }),
        again.locator('pre'),
      ]) {
        expect(await contrastOf(part), `${theme}: ${await part.textContent()}`).toBeGreaterThanOrEqual(4.5)
      }
    }
  })

  test(`an overloaded model shows "retrying", then the error with a Retry that answers once (${size})`, async ({
    page,
    fake,
  }) => {
    await page.setViewportSize(viewport)
    const tag = randomBytes(3).toString('hex')
    // Each 529 asks for a 1.5 s wait: long enough to see the notice, short enough for a test.
    const overloaded = {
      status: 529,
      errorType: 'overloaded_error',
      message: 'Overloaded',
      headers: { 'retry-after-ms': '1500' },
    }
    fake.replyWhen(tag, overloaded, overloaded, overloaded, { text: `Here it is after all (${tag}).` })
    await signUp(page, 'Otto Overload', uniqueEmail('otto'))
    await openChat(page)
    await ask(page, `summarise the week (${tag})`)
    const panel = chatPanel(page)
    await expect(panel.getByTestId('chat-retrying')).toContainText('The model is overloaded (529)')
    await expect(panel.getByTestId('chat-retrying')).toContainText('try 2 of 3')
    await expect(panel.getByTestId('chat-retrying')).toContainText('try 3 of 3')
    const alert = panel.getByRole('alert')
    await expect(alert).toContainText('overloaded (529) and did not answer after 3 tries')
    await expect(panel.getByTestId('chat-retrying')).toHaveCount(0)

    // Retry from the keyboard: the question is answered once, not asked twice.
    await alert.getByRole('button', { name: 'Retry' }).focus()
    await page.keyboard.press('Enter')
    await expect(panel.getByText(`Here it is after all (${tag}).`)).toBeVisible()
    await expect(panel.getByRole('alert')).toHaveCount(0)
    await expect(panel.getByText(`summarise the week (${tag})`)).toHaveCount(1)
    // The stored thread agrees: reopened, it has the question once and the answer.
    await reopenThread(page, tag)
    await expect(chatPanel(page).getByText(`summarise the week (${tag})`)).toHaveCount(1)
    await expect(chatPanel(page).getByText(`Here it is after all (${tag}).`)).toBeVisible()
  })
}
