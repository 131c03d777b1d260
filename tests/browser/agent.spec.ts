import { randomBytes } from 'node:crypto'
import { expect, test } from '@playwright/test'
import type { FakeBlock } from '../support/fake-anthropic.ts'
import { chatPanel, historyChat } from './chat.ts'
import { signUp, uniqueEmail } from './helpers.ts'

// A whole story with a production build, a real scheduler and a fake model server.
test.describe.configure({ timeout: 180_000 })

type Reply = { text: string } | { content: FakeBlock[] }

/** Scripts the fake Anthropic server: these replies answer only requests whose messages mention `match`. */
async function scriptModel(match: string, replies: Reply[]) {
  const res = await fetch(`${process.env.E2E_FAKE_ANTHROPIC_URL}/__control/replies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ match, replies }),
  })
  expect(res.status).toBe(204)
}

test('chat → job created → listed → run now → transcript readable', async ({ page }) => {
  const tag = randomBytes(3).toString('hex')
  const name = `digest-${tag}`
  const prompt = `Summarise yesterday's sign-ups (${tag}).`
  await scriptModel(tag, [
    // The chat turn: the model creates the job, with a note first (decision 0460), then answers.
    {
      content: [
        { type: 'thinking', thinking: `Let me create the job first (${tag}).` },
        {
          type: 'tool_use',
          name: 'manage-jobs',
          input: {
            action: 'create',
            name,
            schedule: '0 7 * * 1-5',
            timezone: 'Europe/Berlin',
            instructions: prompt,
          },
        },
      ],
    },
    { text: `Done: **${name}** runs every weekday at 07:00 (Europe/Berlin).` },
    // The run: the agent notes what it does, checks the clock, then reports.
    {
      content: [
        { type: 'thinking', thinking: `Checking the date before counting (${tag}).` },
        { type: 'tool_use', name: 'clock', input: {} },
      ],
    },
    { text: `Yesterday there were 42 sign-ups (${tag}).` },
  ])

  await signUp(page, 'Aida Agent', uniqueEmail('aida'))
  await expect(page.getByText('No jobs yet')).toBeVisible()

  // The keyboard opens the panel with the focus in the message box.
  const toggle = page.getByRole('button', { name: 'Ask the agent' })
  await expect(toggle).toHaveAttribute('data-ready', 'true')
  await page.keyboard.press('Control+j')
  const panel = chatPanel(page)
  await expect(panel).toBeVisible()
  const input = panel.getByLabel('Message the agent')
  await expect(input).toBeFocused()
  await input.fill(`Every weekday at 7 in Berlin, summarise yesterday's sign-ups (${tag})`)
  await input.press('Enter')

  // The model's note shows before the tool call, as a readable step linking to the new job, then the reply.
  await expect(panel.getByTestId('agent-note')).toHaveText(`Let me create the job first (${tag}).`)
  const step = panel.getByTestId('tool-step').filter({ hasText: name })
  await expect(step).toHaveText(`Created job ${name}, every weekday at 07:00 (Europe/Berlin)`)
  await expect(step.getByRole('link', { name })).toHaveAttribute('href', /^\/jobs\/job_/)
  await expect(panel.getByText(`runs every weekday at 07:00 (Europe/Berlin).`)).toBeVisible()

  // The jobs list behind the panel picked the new job up without a reload.
  await expect(page.locator('main').getByRole('link', { name })).toBeVisible()

  // Escape closes the panel and gives the focus back to the toggle.
  await input.press('Escape')
  await expect(panel).toBeHidden()
  await expect(toggle).toBeFocused()

  // The job's page: run it now, then read the run's transcript.
  await page.locator('main').getByRole('link', { name }).click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  await expect(page.getByText('Every weekday at 07:00 (Europe/Berlin)').first()).toBeVisible()
  await page.getByRole('button', { name: 'Run now' }).click()
  await expect(page.getByText('Succeeded').filter({ visible: true }).first()).toBeVisible({ timeout: 30_000 })
  // Two model calls of 12 + 7 tokens each, priced as claude-sonnet-5-5, the default ($2 / $10 per million).
  const runRow = page.getByTestId('run-row').first()
  await expect(runRow).toContainText('24 in · 14 out')
  await expect(runRow).toContainText('≈ $0.00019')
  await page
    .getByRole('link', { name: /^Transcript of the/ })
    .first()
    .click()
  const transcript = page.getByTestId('transcript')
  await expect(transcript.getByText(prompt)).toBeVisible()
  await expect(transcript.getByTestId('tool-step').filter({ hasText: 'Checked the time' })).toBeVisible()
  // The run's note, muted, just before the tool call it precedes.
  const note = transcript.getByTestId('agent-note')
  await expect(note).toHaveText(`Checking the date before counting (${tag}).`)
  await expect(note.locator('xpath=following-sibling::*[1]')).toContainText('Checked the time')
  await expect(transcript.getByText(`Yesterday there were 42 sign-ups (${tag}).`)).toBeVisible()

  // The chat is kept: it can be reopened from the panel's history.
  await page.keyboard.press('Escape')
  await page.keyboard.press('Control+j')
  await chatPanel(page).getByRole('button', { name: 'History' }).click()
  await historyChat(page, tag).click()
  await expect(chatPanel(page).getByTestId('tool-step').filter({ hasText: name })).toBeVisible()
})

test('Settings → Models shows the model in use and takes a key write-only', async ({ page }) => {
  await signUp(page, 'Kai Keys', uniqueEmail('kai'))
  await page.goto('/settings')
  await page.getByRole('link', { name: 'Models' }).click()
  await expect(page).toHaveURL(/\/settings\/models$/)
  // The default model; a retired one would be named in a warning here (first-run specs).
  await expect(page.getByTestId('model-in-use')).toHaveText('anthropic:claude-sonnet-5-5')
  await expect(page.getByTestId('model-retired')).toHaveCount(0)
  await expect(page.getByTestId('source-chat')).toHaveText("the deployment's key (from the server's .env)")

  const personal = page.getByTestId('key-personal')
  await personal.getByLabel('Add your key').fill('sk-ant-browser-secret-7f3q')
  await personal.getByRole('button', { name: 'Save key' }).click()
  await expect(personal.getByTestId('stored-personal')).toHaveText('••••7f3q')
  await expect(page.getByTestId('source-chat')).toHaveText('your own key')
  // The key is never shown again: not in the field, not anywhere on the page.
  await expect(personal.getByLabel('Replace your key')).toHaveValue('')
  expect(await page.content()).not.toContain('sk-ant-browser-secret')

  await personal.getByRole('button', { name: 'Remove your key' }).click()
  await expect(personal.getByText('none stored')).toBeVisible()
})
