import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { axeFindings } from './axe.ts'
import { signUp, uniqueEmail } from './helpers.ts'
import { sidewaysScroll, textsBelowAA, useTheme, VIEWPORTS } from './look.ts'

// A story of chat turns (the agent writing skills), decisions and a job form.
test.describe.configure({ timeout: 180_000 })

type Reply =
  { text: string } | { content: { type: 'tool_use'; name: string; input: Record<string, unknown> }[] }

/** Scripts the shared server's fake model: these replies answer only requests mentioning `match`. */
async function scriptModel(match: string, replies: Reply[]) {
  const res = await fetch(`${process.env.E2E_FAKE_ANTHROPIC_URL}/__control/replies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ match, replies }),
  })
  expect(res.status).toBe(204)
}

/**
 * The agent writes `skills/<name>/SKILL.md` for each skill through its own write_file tool, in one
 * chat turn sent the way the chat panel sends it; a new or changed skill is stored pending.
 */
async function agentWritesSkills(
  page: Page,
  baseURL: string,
  skills: Record<string, string> | [name: string, body: string][],
) {
  const writes = Array.isArray(skills) ? skills : Object.entries(skills)
  const tag = randomBytes(4).toString('hex')
  await scriptModel(tag, [
    ...writes.map(([name, body]) => ({
      content: [
        {
          type: 'tool_use' as const,
          name: 'write_file',
          input: {
            path: `skills/${name}/SKILL.md`,
            content: `---\nname: ${name}\ndescription: About ${name}\n---\n${body}\n`,
          },
        },
      ],
    })),
    { text: `Wrote the skills (${tag}).` },
  ])
  const turn = await page.request.post('/_agent-native/agent/chat', {
    headers: { origin: baseURL },
    data: {
      message: { id: `m-${tag}`, role: 'user', parts: [{ type: 'text', text: `Write skills ${tag}` }] },
    },
  })
  expect(turn.status()).toBe(200)
  const stream = await turn.text()
  for (const [name] of writes)
    expect(stream).toContain(`"skill":{"name":"${name}","status":"pending_approval"`)
}

/** Presses a skill card's button from the keyboard: focus it, then Enter. */
async function pressFromKeyboard(card: Locator, name: 'Approve' | 'Reject') {
  const button = card.getByRole('button', { name })
  await expect(button).toBeEnabled() // enabled once the page is hydrated
  await button.focus()
  await expect(button).toBeFocused()
  await button.page().keyboard.press('Enter')
}

const status = (card: Locator, label: string) => card.getByText(label, { exact: true })

test('skills: pending until a person approves from the keyboard, pending again after an edit, rejected; a job attaches only approved ones', async ({
  page,
  baseURL,
}) => {
  await signUp(page, 'Sara Skills', uniqueEmail('sara'))
  await agentWritesSkills(page, baseURL!, {
    'deploy-notes': 'Deploy on Tuesdays.',
    'loud-rules': 'Shout at readers.',
    'draft-ideas': 'Half-baked.',
  })

  await page.goto('/skills')
  const deploy = page.getByTestId('skill-deploy-notes')
  const loud = page.getByTestId('skill-loud-rules')
  await expect(status(deploy, 'Pending approval')).toBeVisible()
  await expect(deploy).toContainText('Deploy on Tuesdays.')

  await pressFromKeyboard(deploy, 'Approve')
  await expect(status(deploy, 'Approved')).toBeVisible()
  await expect(deploy.getByRole('button', { name: 'Approve' })).toHaveCount(0)

  // The agent edits the approved skill: it is pending again, with the new text.
  await agentWritesSkills(page, baseURL!, { 'deploy-notes': 'Deploy on Fridays.' })
  await page.reload()
  await expect(status(deploy, 'Pending approval')).toBeVisible()
  await expect(deploy).toContainText('Deploy on Fridays.')

  await pressFromKeyboard(loud, 'Reject')
  await expect(status(loud, 'Rejected')).toBeVisible()
  await expect(loud.getByRole('button', { name: 'Approve' })).toHaveCount(0)

  await pressFromKeyboard(deploy, 'Approve')
  await expect(status(deploy, 'Approved')).toBeVisible()
  await expect(status(page.getByTestId('skill-draft-ideas'), 'Pending approval')).toBeVisible()

  // The job form: a pending skill is refused next to the field, nothing is created.
  await page.goto('/jobs/new')
  await page.getByLabel('Name').fill('release-notes')
  await page.getByLabel('Prompt').fill('Write the release notes.')
  await page.locator('summary', { hasText: 'Advanced' }).click()
  const skills = page.getByLabel('Skills', { exact: true })
  await skills.fill('deploy-notes, draft-ideas')
  await page.getByRole('button', { name: 'Create job' }).click()
  await expect(skills).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText(/"draft-ideas" waits for a person's approval/)).toBeVisible()
  await expect(page).toHaveURL(/\/jobs\/new$/)

  // The approved one is attached, and the editor shows it after a reload.
  await skills.fill('deploy-notes')
  await page.getByRole('button', { name: 'Create job' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'release-notes' })).toBeVisible()
  await page.reload()
  await page.getByRole('tab', { name: 'Definition' }).click()
  await page.locator('summary', { hasText: 'Advanced' }).click()
  await expect(page.getByLabel('Skills', { exact: true })).toHaveValue('deploy-notes')
})

test('skills: deleted from the keyboard after a confirm step, the focus kept on the list', async ({
  page,
  baseURL,
}) => {
  await signUp(page, 'Dana Delete', uniqueEmail('dana'))
  await agentWritesSkills(page, baseURL!, { 'old-notes': 'Out of date.', 'kept-notes': 'Still true.' })
  await page.goto('/skills')
  const trigger = page.getByRole('button', { name: 'Delete skill old-notes' })
  await expect(trigger).toBeEnabled() // enabled once the page is hydrated
  await trigger.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('alertdialog', { name: 'Delete old-notes?' })
  // Keeping it changes nothing.
  await dialog.getByRole('button', { name: 'Keep it' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('skill-old-notes')).toBeVisible()

  await trigger.focus()
  await page.keyboard.press('Enter')
  await dialog.getByRole('button', { name: 'Delete' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('skill-old-notes')).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Skills' })).toBeFocused()
  await expect(page.getByTestId('skill-kept-notes')).toBeVisible()
})

test("skills: a skill's history opens from the keyboard in the person's time zone and pages back to its first entry, on a dark 390 px phone", async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize(VIEWPORTS.phone)
  await signUp(page, 'Hana History', uniqueEmail('hana'))
  const zone = await page.request.post('/settings/profile', {
    headers: { origin: baseURL! },
    form: { timezone: 'Pacific/Auckland' },
  })
  expect(zone.ok()).toBe(true)
  await useTheme(page, 'dark')
  // Proposed, then changed 19 times (ten writes a turn, under the chat's step limit), then approved:
  // 21 entries, one more than the first page shows.
  for (const turn of [0, 1])
    await agentWritesSkills(
      page,
      baseURL!,
      Array.from(
        { length: 10 },
        (_, i) => ['long-history', `Version ${turn * 10 + i + 1}.`] as [string, string],
      ),
    )
  await page.goto('/skills')
  const card = page.getByTestId('skill-long-history')
  await pressFromKeyboard(card, 'Approve')
  await expect(status(card, 'Approved')).toBeVisible()

  // The first read fails: the error says so, and Try again reads it.
  await page.route(
    /\/_agent-native\/skills\/[^/?]+\?/,
    (route) => route.fulfill({ status: 503, json: { error: { message: 'The server is busy.' } } }),
    { times: 1 },
  )
  const history = card.getByRole('button', { name: 'History of long-history' })
  await history.focus()
  await page.keyboard.press('Enter')
  await expect(history).toHaveAttribute('aria-expanded', 'true')
  await expect(card.getByRole('alert')).toContainText('The server is busy.')
  await card.getByRole('button', { name: 'Try again' }).focus()
  await page.keyboard.press('Enter')

  const list = card.getByRole('list', { name: 'History of long-history' })
  const entries = list.getByRole('listitem')
  await expect(entries).toHaveCount(20)
  await expect(card.getByRole('alert')).toHaveCount(0)
  await expect(entries.first()).toContainText('Hana History approved it')
  await expect(entries.first()).toContainText('(Pacific/Auckland)')
  await expect(entries.nth(1)).toContainText('Hana History (through their agent) changed its text')
  await expect(card.getByText('20 of 21 entries')).toBeVisible()

  // Readable in the dark and on the phone: contrast, axe, nothing scrolls sideways.
  expect(await textsBelowAA(page)).toEqual([])
  expect(await axeFindings(page, 'skills, history open')).toEqual([])
  expect(await sidewaysScroll(page)).toEqual({ page: 0, boxes: [] })

  // The page before: its oldest entry, then no more to show, the focus kept in the history.
  const earlier = card.getByRole('button', { name: 'Show earlier' })
  await earlier.focus()
  await page.keyboard.press('Enter')
  await expect(entries).toHaveCount(21)
  await expect(entries.last()).toContainText('Hana History (through their agent) proposed it')
  await expect(earlier).toHaveCount(0)
  await expect(list).toBeFocused()

  // Enter on History again closes it.
  await history.focus()
  await page.keyboard.press('Enter')
  await expect(history).toHaveAttribute('aria-expanded', 'false')
  await expect(list).toBeHidden()
})

test('skills: a skill without audit entries says its history is empty (a skill row written straight to the database)', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('nora')
  await signUp(page, 'Nora Nohistory', email)
  await agentWritesSkills(page, baseURL!, { 'no-history': 'Nothing recorded.' })
  // Clockwork writes every skill with its audit entry, in one transaction, and never deletes
  // entries: only a write straight to the database (a restore of the skills table alone, an
  // operator's SQL) leaves a skill without one. The panel still says so instead of showing nothing.
  const sql = postgres(process.env.E2E_DATABASE_URL!, { max: 1, onnotice: () => {} })
  try {
    await sql`delete from skill_audit where skill_id in
      (select s.id from skills s join "user" u on u.id = s.created_by where u.email = ${email})`
  } finally {
    await sql.end()
  }
  await page.goto('/skills')
  const card = page.getByTestId('skill-no-history')
  const history = card.getByRole('button', { name: 'History of no-history' })
  await expect(history).toBeEnabled()
  await history.focus()
  await page.keyboard.press('Enter')
  await expect(history).toHaveAttribute('aria-expanded', 'true')
  await expect(card.getByText('No history recorded for this skill.')).toBeVisible()
  await expect(card.getByRole('list', { name: 'History of no-history' })).toHaveCount(0)
  await expect(card.getByRole('button', { name: 'Show earlier' })).toHaveCount(0)
  expect(await axeFindings(page, 'skills, empty history open')).toEqual([])
})
