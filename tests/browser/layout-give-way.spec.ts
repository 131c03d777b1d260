import { expect, test, type Locator, type Page } from '@playwright/test'
import { test as environmentsTest } from './environments-server.ts'
import { createJobOverApi, runToEnd, signUp, uniqueEmail } from './helpers.ts'
import {
  expectWhole,
  fieldsCut,
  linesOf,
  onOneLine,
  sidewaysScroll,
  VIEWPORTS,
  wordsBrokenAcrossLines,
} from './look.ts'

// Jobs, a run through the scheduler and several page loads, on a busy machine.
test.describe.configure({ timeout: 150_000 })

const NAME = 'daily-digest-for-the-growth-team'

/** At desktop size the chat panel is open beside each page (it narrows the page the most). */
async function openChat(page: Page) {
  await expect(page.getByRole('button', { name: 'Ask the agent' })).toHaveAttribute('data-ready', 'true')
  await page.keyboard.press('Control+j')
  const panel = page.getByRole('complementary', { name: 'Agent chat' })
  await expect(panel).toBeVisible()
  return panel
}

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  const withChat = size === 'desktop'
  test(`pages give way${withChat ? ' to the open chat' : ''}: nothing clipped or cut mid-word (${size})`, async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize(viewport)
    await signUp(page, 'Gus Giveway', uniqueEmail('gus'))
    const headers = { origin: baseURL! }
    const ids: string[] = []
    for (const name of [NAME, 'weekly-report']) {
      const job = await createJobOverApi(page, {
        name,
        schedule: '0 7 * * 1-5',
        timezone: 'Europe/Berlin',
        instructions: 'Summarise yesterday’s sign-ups for the growth team.',
      })
      ids.push(job.id)
    }
    // A change to audit: values under 60 characters, shown inline as "before → after", which
    // wrap onto a second line beside the open chat or on a phone.
    const changed = await page.request.patch(`/_agent-native/jobs/${ids[0]}`, {
      headers,
      data: {
        schedule: '30 18 * * 1-5',
        timezone: 'America/Los_Angeles',
        instructions: 'Summarise last week’s sign-ups for the whole growth team.',
      },
    })
    expect(changed.status()).toBe(200)
    const run = await runToEnd(page, baseURL!, ids[0]!)
    expect(run.status, run.error ?? '').toBe('success')

    await page.goto('/jobs')
    const panel = withChat ? await openChat(page) : undefined
    // The jobs table: no sideways scrolling, every row's switch and menu in view.
    await expectWhole(page.getByTestId('jobs-table'), panel)
    for (const name of [NAME, 'weekly-report']) {
      const row = page.getByTestId(`job-row-${name}`)
      await expectWhole(row.getByRole('switch', { name: `Enabled: ${name}` }), panel)
      await expectWhole(row.getByRole('button', { name: `Actions for ${name}` }), panel)
      await expectWhole(row.getByRole('link', { name, exact: true }), panel)
    }

    // The calendar's week: job names whole (wrapped), not cut to "dail…".
    await page.goto('/calendar')
    if (withChat) await openChat(page)
    const fires = page.getByTestId('calendar-fire').filter({ hasText: NAME })
    await expect(fires.first()).toBeVisible()
    for (const fire of await fires.all()) {
      await expectWhole(fire.getByText(NAME), panel)
    }

    // The run page: the model's full id.
    await page.goto(`/jobs/${ids[0]}/runs/${run.id}`)
    if (withChat) await openChat(page)
    const model = page.getByTestId('run-header').locator('dd').first()
    await expect(model).toHaveText('anthropic:claude-sonnet-5-5')
    await expectWhole(model, panel)

    // The audit trail: values wrap between words, never inside one.
    await page.goto(`/jobs/${ids[0]}?tab=audit`)
    if (withChat) await openChat(page)
    const trail = page.getByTestId('audit-trail')
    await expect(trail).toContainText('America/Los_Angeles')
    await expectWhole(trail, panel)
    expect(await wordsBrokenAcrossLines(trail)).toEqual([])
  })
}

/** The jobs table's tiers (jobs-table.css): from which table width, in rem, a column shows. */
const COLUMN_FROM = { nextAndLast: 42, schedule: 56, owner: 64 } as const

test('the jobs table shows each fact of a row once, in its column or under the name, at every width', async ({
  page,
  baseURL,
}) => {
  await signUp(page, 'Una Once', uniqueEmail('una'))
  const job = await createJobOverApi(page, {
    name: 'said-once',
    schedule: '0 7 * * 1-5',
    timezone: 'Europe/Berlin',
    instructions: 'Count.',
  })
  expect((await runToEnd(page, baseURL!, job.id)).status).toMatch(/^(success|error)$/)
  const { job: ran } = await (await page.request.get(`/_agent-native/jobs/${job.id}`)).json()
  const statusLabel = ran.lastStatus === 'success' ? 'Succeeded' : 'Failed'

  const tiers = new Set<string>()
  for (const width of [390, 760, 1300, 1440]) {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/jobs')
    const table = page.getByTestId('jobs-table')
    const rem = (await table.evaluate((el) => el.clientWidth)) / 16
    const shows = (from: number) => (rem >= from ? 1 : 0)
    tiers.add([COLUMN_FROM.nextAndLast, COLUMN_FROM.schedule, COLUMN_FROM.owner].map(shows).join(''))
    const row = page.getByTestId('job-row-said-once')
    const visible = (locator: Locator) => locator.filter({ visible: true })
    const at = `table ${rem.toFixed(1)}rem wide (viewport ${width})`
    // Always, under the name or in its column: the description, the next run, the last run's
    // outcome and its dots; the name, the switch and the menu stay.
    await expect(visible(row.getByText(ran.description, { exact: true })), at).toHaveCount(1)
    await expect(visible(row.locator(`time[datetime="${ran.nextRun}"]`)), at).toHaveCount(1)
    await expect(visible(row.getByText(statusLabel, { exact: true })), at).toHaveCount(1)
    await expect(visible(row.getByTestId('run-dots')), at).toHaveCount(1)
    await expect(row.getByTestId('run-dots').getByRole('link'), at).toHaveCount(1)
    await expect(visible(row.getByRole('link', { name: 'said-once' })), at).toHaveCount(1)
    await expect(visible(row.getByRole('switch', { name: 'Enabled: said-once' })), at).toHaveCount(1)
    // In their columns only: the cron expression, when the last run was, and the owner.
    await expect(visible(row.getByText('0 7 * * 1-5', { exact: true })), at).toHaveCount(
      shows(COLUMN_FROM.schedule),
    )
    await expect(visible(row.locator(`time[datetime="${ran.lastRun}"]`)), at).toHaveCount(
      shows(COLUMN_FROM.nextAndLast),
    )
    await expect(visible(row.getByText('Una Once')), at).toHaveCount(shows(COLUMN_FROM.owner))
    // A screen reader still finds a table with its headers, however narrow it is.
    const grid = table.getByRole('table', { name: 'Jobs (1)' })
    await expect(grid.getByRole('columnheader', { name: 'Next run' }), at).toHaveAttribute(
      'aria-sort',
      'none',
    )
    await expect(grid.getByRole('columnheader', { name: 'Name' }), at).toHaveAttribute(
      'aria-sort',
      'ascending',
    )
    await expect(grid.getByRole('row'), at).toHaveCount(2)
    await expect(row.getByRole('cell').first(), at).toContainText('said-once')
  }
  // The widths above met every tier: narrow, next and last, the schedule, the owner.
  expect([...tiers].sort()).toEqual(['000', '100', '110', '111'])
})

/**
 * A laptop's 1280 px with the agent's panel open: the panel takes 28rem beside the page, which
 * leaves the main column the width of a tablet. The job page, its run history and a run's page
 * give way to that column's width (container queries, decision 0529) instead of the window's:
 * nothing scrolls sideways, no column is squeezed past its words.
 */
test('at 1280 px with the chat open the job page, its runs, a run and the environments list fit the main column', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await signUp(page, 'Lars Laptop', uniqueEmail('lars'))
  const job = await createJobOverApi(page, {
    name: NAME,
    schedule: '0 7 * * 1-5',
    timezone: 'Europe/Berlin',
    instructions: 'Count the sign-ups.',
  })
  const run = await runToEnd(page, baseURL!, job.id)
  expect(run.status, run.error ?? '').toBe('success')

  await page.goto(`/jobs/${job.id}`)
  const panel = await openChat(page)
  const runs = page.getByRole('table', { name: 'Runs, newest first' })
  await expect(runs.getByTestId('run-row')).toHaveCount(1)
  expect(await sidewaysScroll(page), 'the job page').toEqual({ page: 0, boxes: [] })
  await expectWhole(runs, panel)
  // The run's row keeps its cost and duration in view, on their lines.
  const row = runs.getByTestId('run-row')
  for (const cell of await row.getByRole('cell').filter({ visible: true }).all()) {
    await expectWhole(cell, panel)
  }
  // The status and details cards are readable: a label and its value side by side, not a sliver.
  const status = page.getByRole('heading', { name: 'Status', level: 2 }).locator('..')
  expect((await status.boundingBox())!.width, 'the status card').toBeGreaterThanOrEqual(280)

  await page.goto(`/jobs/${job.id}/runs/${run.id}`)
  await openChat(page)
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Succeeded')
  expect(await sidewaysScroll(page), 'the run page').toEqual({ page: 0, boxes: [] })
  // Every figure of the run's header whole, and a number never broken across two lines.
  const header = page.getByTestId('run-header')
  await expectWhole(header, panel)
  for (const label of ['Input tokens', 'Output tokens', 'Cost', 'Duration']) {
    const value = header
      .locator('div')
      .filter({ has: page.getByText(label, { exact: true }) })
      .locator('dd')
    await expectWhole(value, panel)
    expect(await linesOf(value), label).toBe(1)
  }
  expect(await wordsBrokenAcrossLines(header)).toEqual([])

  // The environments list: its rows whole beside the chat, the name still a link.
  await page.goto('/environments')
  await openChat(page)
  await expect(page.getByRole('link', { name: 'scratch', exact: true })).toBeVisible()
  expect(await sidewaysScroll(page), 'the environments list').toEqual({ page: 0, boxes: [] })
})

/** Whether `right` sits beside `left` (two columns) rather than under it (one): it starts past the other's end. */
async function beside(left: Locator, right: Locator) {
  const [a, b] = await Promise.all([left.boundingBox(), right.boundingBox()])
  expect(a, 'not rendered').not.toBeNull()
  expect(b, 'not rendered').not.toBeNull()
  return b!.x >= a!.x + a!.width - 1
}

/** Narrower than this, code wraps every few words: the editor beside a 15rem file tree in a 33rem column. */
const EDITOR_ROOM = 480

test('at 1280 px with the chat open the workspace puts its files above the open file; without the chat, beside it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await signUp(page, 'Wim Workspace', uniqueEmail('wim'))
  await createJobOverApi(page, {
    name: NAME,
    schedule: '0 7 * * 1-5',
    timezone: 'Europe/Berlin',
    instructions: 'Summarise yesterday’s sign-ups for the growth team, one line per channel.',
  })

  await page.goto(`/workspace?${new URLSearchParams({ scope: 'personal', path: `jobs/${NAME}.md` })}`)
  const panel = await openChat(page)
  const files = page.getByRole('region', { name: 'Personal files' })
  const editor = page.locator('.cm-editor')
  await expect(editor).toContainText('one line per channel')
  expect(await sidewaysScroll(page), 'the workspace').toEqual({ page: 0, boxes: [] })
  // One column: the files above, the open file the column's width below them.
  expect(await beside(files, editor), 'the files above the open file').toBe(false)
  expect((await editor.boundingBox())!.width, 'the editor').toBeGreaterThanOrEqual(EDITOR_ROOM)
  // The file's bar: its name, what it is and its buttons in view.
  for (const control of [
    page.getByRole('link', { name: 'Open job' }),
    page.getByRole('button', { name: `Delete jobs/${NAME}.md` }),
    page.getByRole('button', { name: 'Save', exact: true }),
  ]) {
    await expectWhole(control, panel)
  }

  // The chat closed, the same window has room for both: the files beside the open file, as before.
  await page.keyboard.press('Control+j')
  await expect(panel).toBeHidden()
  await expect.poll(() => beside(files, editor), 'the files beside the open file').toBe(true)
  expect((await editor.boundingBox())!.width, 'the editor').toBeGreaterThanOrEqual(EDITOR_ROOM)
})

environmentsTest(
  'at 1280 px with the chat open an environment’s files, its viewer and its audit log fit the main column; without the chat the files sit beside the viewer',
  async ({ page, baseURL }) => {
    // Sandboxed commands: the first one starts the sandbox, slow on a busy machine.
    environmentsTest.setTimeout(180_000)
    await page.setViewportSize({ width: 1280, height: 800 })
    await signUp(page, 'Eno Envpage', uniqueEmail('eno'))
    const headers = { origin: baseURL! }
    // Files in folders (the tree), one to read, and audit rows: allowed, denied, a long argument.
    const SHORT = 'echo hello > hi.txt && cat hi.txt'
    const commands = [
      [
        'mkdir -p src/lib',
        'printf \'export const greeting = "Hello from the scratch environment, read beside the agent"\\n\' > src/lib/greeting.ts',
        'echo "# Notes" > README.md',
      ].join(' && '),
      SHORT,
      `echo ${'alongunbrokenargument'.repeat(4)}`,
      'sudo ls',
    ]
    for (const command of commands) {
      const res = await page.request.post('/_agent-native/environments/scratch/commands', {
        headers,
        data: { command },
        timeout: 170_000,
      })
      expect(res.status(), command).toBe(command === 'sudo ls' ? 403 : 200)
    }

    await page.goto(
      `/environments/scratch?${new URLSearchParams({ scope: 'personal', file: 'src/lib/greeting.ts' })}`,
    )
    const panel = await openChat(page)
    const editor = page.locator('.cm-editor')
    await expect(editor).toContainText('read beside the agent', { timeout: 30_000 })
    const audit = page.getByTestId('audit-log')
    await expect(audit.locator('tbody tr')).toHaveCount(commands.length)
    expect(await sidewaysScroll(page), 'the environment page').toEqual({ page: 0, boxes: [] })

    // The files above the file being read, which gets the column's width.
    const files = page.getByRole('region', { name: 'scratch files' })
    await expect(files.getByRole('link', { name: 'greeting.ts' })).toHaveAttribute('aria-current', 'page')
    expect.soft(await beside(files, editor), 'the files above the viewer').toBe(false)
    expect.soft((await editor.boundingBox())!.width, 'the viewer').toBeGreaterThanOrEqual(EDITOR_ROOM)
    await expectWhole(page.getByRole('heading', { name: 'src/lib/greeting.ts', level: 2 }), panel)

    // The audit log: whole beside the chat, and a short command on one line, not broken every
    // few letters in a column squeezed by the ones that wait for a wider page.
    await expectWhole(audit, panel)
    const row = audit.locator('tbody tr').filter({ hasText: SHORT })
    for (const cell of await row.getByRole('cell').filter({ visible: true }).all()) {
      await expectWhole(cell, panel)
    }
    expect.soft(await linesOf(row.locator('code')), 'a short command').toBe(1)
    expect(await wordsBrokenAcrossLines(row.getByRole('cell').first())).toEqual([])

    // Without the chat the window has room for both, as before: the files beside the viewer, and
    // every column of the audit log (who, exit, time and output).
    await page.keyboard.press('Control+j')
    await expect(panel).toBeHidden()
    await expect.poll(() => beside(files, editor), 'the files beside the viewer').toBe(true)
    await expect(audit.getByRole('columnheader', { name: 'Who' })).toBeVisible()
    await expect(row.getByText('Eno Envpage')).toBeVisible()
    expect(await sidewaysScroll(page), 'the environment page without the chat').toEqual({
      page: 0,
      boxes: [],
    })
  },
)

/** An MCP server's address of ordinary length: the URL field shows it whole. */
const MCP_URL = 'https://mcp.internal.example.com/v1/mcp'
/** A webhook's host with nowhere to break but its dots and dashes (delivery.spec's). */
const HOST = 'hooks.eu-west-1.notifications.enterprise-example.invalid'
/** 24rem: about 55 characters of 14 px text, the short end of a readable line. */
const MEASURE = 384

/**
 * Forms and settings cards laid out two or three abreast gave way to the window (`sm:`), not to
 * their column: beside the open chat (a 33rem column) a select cut its options, labels broke over
 * two lines, a URL did not show whole and a note was squeezed beside its button. They now follow
 * the column (decision 0529), and without the chat sit abreast again.
 */
test('at 1280 px with the chat open the forms and settings cards cut no option, label, address or word; without the chat they sit abreast again', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await signUp(page, 'Fern Forms', uniqueEmail('fern'))

  // The new job's advanced fields: each select as wide as its longest option.
  await page.goto('/jobs/new')
  await openChat(page)
  const advanced = page.locator('details').filter({ hasText: 'Advanced' })
  await advanced.locator('summary').click()
  await expect(advanced.getByLabel('After downtime')).toBeVisible()
  expect(await fieldsCut(advanced), 'the advanced fields').toEqual([])
  expect(await sidewaysScroll(page), 'the new job').toEqual({ page: 0, boxes: [] })

  // Settings → Agent: each command limit's label on one line, its field under it.
  await page.goto('/settings/agent')
  let panel = await openChat(page)
  const limits = [
    'Time per command (s)',
    'CPU time (s)',
    'Memory (MB)',
    'Processes',
    'Disk per environment (MB)',
    'Output kept per stream (KB)',
  ]
  for (const label of limits) {
    expect(await linesOf(page.getByText(label, { exact: true })), label).toBe(1)
    await expectWhole(page.getByLabel(label), panel)
  }
  // Without the chat the three sit abreast again.
  await page.keyboard.press('Control+j')
  await expect(panel).toBeHidden()
  await expect.poll(() => onOneLine(...limits.slice(0, 3).map((l) => page.getByLabel(l)))).toBe(true)

  // Settings → Delivery: the kind's options whole, and an endpoint's host under its name, whole words.
  await page.goto('/settings/delivery')
  panel = await openChat(page)
  await page.getByLabel('URL').fill(`https://${HOST}/in`)
  expect(await fieldsCut(page.locator('main')), 'the endpoint form').toEqual([])
  // The longest name the schema takes (longer than any field): it breaks anywhere in the list.
  const name = `ops-${'feed'.repeat(14)}-eu`
  await page.getByLabel('Name').fill(name)
  await page.getByRole('button', { name: 'Add endpoint' }).click()
  const host = page.getByText(HOST, { exact: true })
  await expect(host).toBeVisible()
  expect(await wordsBrokenAcrossLines(host), 'the host').toEqual([])
  await expectWhole(page.getByRole('button', { name: `Remove webhook:${name}` }), panel)
  expect(await sidewaysScroll(page), 'Settings → Delivery').toEqual({ page: 0, boxes: [] })

  // Settings → Integrations: an ordinary MCP address shows whole in the URL field.
  await page.goto('/settings/integrations')
  await openChat(page)
  await page.getByLabel('URL').fill(MCP_URL)
  expect(await fieldsCut(page.locator('main')), 'the MCP server form').toEqual([])

  // The environments list's note (only scratch so far): a readable line above its button.
  await page.goto('/environments')
  panel = await openChat(page)
  const note = page.getByTestId('only-scratch')
  const words = note.locator('p')
  const button = note.getByRole('button', { name: 'Create an environment' })
  expect((await words.boundingBox())!.width, 'the note').toBeGreaterThanOrEqual(MEASURE)
  await expectWhole(button, panel)
  // Without the chat there is room for both on one line.
  await page.keyboard.press('Control+j')
  await expect(panel).toBeHidden()
  await expect.poll(() => beside(words, button), 'the button beside the note').toBe(true)
  expect((await words.boundingBox())!.width, 'the note').toBeGreaterThanOrEqual(MEASURE)
})
