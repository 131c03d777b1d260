/**
 * `npm run screenshots`: pictures of the main pages for docs/screenshots.md, so a review starts
 * from what a person sees. Builds nothing itself (the npm script runs `npm run build` first): it
 * starts the production server as the browser tests do (tests/browser/global-setup.ts's pieces: a
 * fresh database, the fake model server), seeds a workspace through the API (four jobs, two of
 * them run, a chat that created a job), and photographs each page at 1440 px and 390 px, light and
 * dark, into docs/screenshots/<page>-<desktop|phone>-<light|dark>.png.
 *
 *   --only a,b   only these pages (jobs, job, run, calendar, environment, chat)
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { chromium, expect, type APIRequestContext, type APIResponse, type Page } from '@playwright/test'
import { chromiumArgs, resolveChromium } from '../tests/support/chromium.ts'
import { startFakeAnthropic } from '../tests/support/fake-anthropic.ts'
import { startPostgresServer } from '../tests/support/postgres-server.ts'
import { spawnServer } from '../tests/support/spawn-server.ts'
// Named so: a Playwright helper, not a React hook.
import { VIEWPORTS, useTheme as chooseTheme } from '../tests/browser/look.ts'

const OUT = 'docs/screenshots'
const PAGES = ['jobs', 'job', 'run', 'calendar', 'environment', 'chat'] as const
type PageName = (typeof PAGES)[number]
const ZONE = 'Europe/Berlin'
const PASSWORD = 'password1234'

const { values: args } = parseArgs({ options: { only: { type: 'string' } } })
const only = new Set((args.only?.split(',') ?? PAGES) as PageName[])

type Reply =
  { text: string } | { content: { type: 'tool_use'; name: string; input: Record<string, unknown> }[] }

type Seeded = { jobId: string; runId: string; threadTag: string }

async function main() {
  const postgres = await startPostgresServer()
  const fake = await startFakeAnthropic({ control: true, fallback: { text: 'Done.' } })
  const server = await spawnServer(
    { ANTHROPIC_API_KEY: 'sk-ant-screenshots-fake-key', ANTHROPIC_BASE_URL: fake.baseURL },
    postgres,
  )
  const browser = await chromium.launch({ executablePath: resolveChromium(), args: chromiumArgs })
  try {
    const base = server.baseUrl
    const script = async (match: string, replies: Reply[]) => {
      const res = await fetch(`${fake.baseURL.replace(/\/v1$/, '')}/__control/replies`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ match, replies }),
      })
      if (res.status !== 204) throw new Error(`scripting the fake model: ${res.status}`)
    }

    const setup = await browser.newContext({ baseURL: base, timezoneId: ZONE })
    const email = 'ada@example.com'
    const seeded = await seed(setup.request, base, email, script)
    const page = await setup.newPage()
    await chat(page, seeded.threadTag)
    await command(page)
    const state = await setup.storageState()
    await setup.close()

    mkdirSync(OUT, { recursive: true })
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      for (const theme of ['light', 'dark'] as const) {
        const context = await browser.newContext({
          baseURL: base,
          viewport,
          timezoneId: ZONE,
          storageState: state,
        })
        const page = await context.newPage()
        await page.goto('/jobs')
        await chooseTheme(page, theme)
        for (const name of PAGES) {
          if (!only.has(name)) continue
          await show(page, name, seeded)
          const file = path.join(OUT, `${name}-${size}-${theme}.png`)
          await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' })
          console.log(`wrote ${file}`)
        }
        await context.close()
      }
    }
  } finally {
    await browser.close()
    await server.stop()
    await fake.close() // The server's stop stopped its database server too.
  }
}

/** A person with four jobs (cron, interval, one-shot), two of them run once, in Berlin time. */
async function seed(
  request: APIRequestContext,
  base: string,
  email: string,
  script: (match: string, replies: Reply[]) => Promise<void>,
): Promise<Seeded> {
  const headers = { origin: base }
  const ok = async (what: string, res: Promise<APIResponse>) => {
    const answer = await res
    if (!answer.ok()) throw new Error(`${what}: ${answer.status()} ${await answer.text()}`)
    return answer.json()
  }
  await ok(
    'sign-up',
    request.post('/_agent-native/auth/sign-up/email', {
      headers,
      data: { name: 'Ada Lovelace', email, password: PASSWORD },
    }),
  )
  await ok(
    'time zone',
    request.post('/_agent-native/auth/update-user', { headers, data: { timezone: ZONE } }),
  )
  const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
  const jobs = [
    {
      name: 'daily-digest',
      schedule: '0 7 * * 1-5',
      instructions: 'Summarise yesterday’s sign-ups and the three busiest pages, in five lines.',
    },
    {
      name: 'inbox-triage',
      schedule: 'every 2h',
      instructions: 'Sort new support mail into urgent and later.',
    },
    {
      name: 'weekly-metrics',
      schedule: '0 9 * * 1',
      instructions: 'Post last week’s active users and churn.',
    },
    {
      name: 'quarterly-review',
      schedule: `at ${inAMonth}T10:00`,
      instructions: 'Draft the quarterly review from the weekly metrics.',
    },
  ]
  const ids: string[] = []
  for (const job of jobs) {
    const body = await ok(
      `create ${job.name}`,
      request.post('/_agent-native/jobs', { headers, data: { ...job, timezone: ZONE } }),
    )
    ids.push(body.job.id)
  }
  // Two runs: the agent reads the clock, then reports (tool steps in the transcript).
  await script('five lines', [
    { content: [{ type: 'tool_use', name: 'clock', input: {} }] },
    {
      text:
        '## Yesterday\n\n- **42** sign-ups (+8 on the day before)\n- Busiest pages: `/pricing`, `/docs`, `/blog/launch`\n\n' +
        '| source | sign-ups |\n| --- | --- |\n| search | 23 |\n| direct | 12 |\n| referral | 7 |',
    },
  ])
  await script('support mail', [{ text: 'Three new mails: one urgent (billing), two for later.' }])
  const runIds: string[] = []
  for (const id of ids.slice(0, 2)) {
    const body = await ok(`run ${id}`, request.post(`/_agent-native/jobs/${id}/run`, { headers }))
    runIds.push(body.run.id)
  }
  for (const runId of runIds) {
    await expect
      .poll(async () => (await (await request.get(`/_agent-native/runs/${runId}`)).json()).run.status, {
        timeout: 60_000,
      })
      .toBe('success')
  }
  // The chat: the agent creates a job with a tool, then answers.
  const threadTag = 'release-notes'
  await script(threadTag, [
    {
      content: [
        {
          type: 'tool_use',
          name: 'manage-jobs',
          input: {
            action: 'create',
            name: 'release-notes',
            schedule: '0 16 * * 5',
            timezone: ZONE,
            instructions: 'Collect the week’s merged pull requests into release notes.',
          },
        },
      ],
    },
    { text: 'Done: **release-notes** runs every Friday at 16:00 (Europe/Berlin).' },
  ])
  return { jobId: ids[0]!, runId: runIds[0]!, threadTag }
}

/** Asks the agent for a job in the chat (the reply is scripted above), leaving the thread stored. */
async function chat(page: Page, tag: string) {
  await page.goto('/jobs')
  await expect(page.getByRole('button', { name: 'Ask the agent' })).toHaveAttribute('data-ready', 'true')
  await page.keyboard.press('ControlOrMeta+j')
  const input = page.getByLabel('Message the agent')
  await input.fill(`Every Friday at 4 pm, write the ${tag} from the merged pull requests`)
  await input.press('Enter')
  await expect(page.getByText('runs every Friday at 16:00 (Europe/Berlin).')).toBeVisible({ timeout: 60_000 })
}

/** A command in the scratch environment, so its page shows files, changes and an audit entry. */
async function command(page: Page) {
  await page.goto('/environments/scratch')
  const box = page.getByLabel('Command')
  await box.fill(
    'mkdir -p notes && printf "# Notes\\n\\nWhat the agent keeps between runs.\\n" > notes/README.md && ls notes',
  )
  await box.press('Enter')
  // The first command starts the sandbox; where there is none, the page is photographed as it is.
  await expect(page.getByTestId('command-result'))
    .toContainText('Exit 0', { timeout: 120_000 })
    .catch((error: Error) => console.warn(`the environment's command did not run: ${error.message}`))
}

/** Opens one page and waits until it shows its content, hydrated. */
async function show(page: Page, name: PageName, seeded: Seeded) {
  const main = page.locator('main')
  const ready = () =>
    expect(page.getByRole('button', { name: 'Ask the agent' })).toHaveAttribute('data-ready', 'true')
  switch (name) {
    case 'jobs':
      await page.goto('/jobs')
      await expect(main.getByRole('link', { name: 'daily-digest' })).toBeVisible()
      break
    case 'job':
      await page.goto(`/jobs/${seeded.jobId}`)
      await expect(main.getByRole('heading', { level: 1, name: 'daily-digest' })).toBeVisible()
      break
    case 'run':
      await page.goto(`/jobs/${seeded.jobId}/runs/${seeded.runId}`)
      await expect(page.getByTestId('transcript').getByTestId('tool-step').first()).toBeVisible()
      break
    case 'calendar':
      await page.goto('/calendar')
      await expect(page.getByTestId('calendar-fire').first()).toBeVisible()
      break
    case 'environment':
      await page.goto('/environments/scratch')
      await expect(main.getByRole('heading', { level: 1, name: 'scratch' })).toBeVisible()
      break
    case 'chat': {
      await page.goto('/jobs')
      await ready()
      await page.keyboard.press('ControlOrMeta+j')
      const panel = page.getByRole('complementary', { name: 'Agent chat' })
      await panel.getByRole('button', { name: 'History' }).click()
      await panel.getByRole('button', { name: new RegExp(seeded.threadTag) }).click()
      await expect(panel.getByTestId('tool-step').first()).toBeVisible()
      await expect(panel.getByText('runs every Friday at 16:00')).toBeVisible()
      break
    }
  }
  await ready()
  await page.waitForLoadState('networkidle')
}

await main()
