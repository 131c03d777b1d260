/**
 * What a new user meets on a first run of the dev server: `.env` is read (as by the production
 * server, first-run-production.spec.ts), its first /jobs loads only what the page shows, and a
 * fresh dev server (no Vite cache) does not reload the page under them. The servers start from the
 * real entry (server/dev.ts): one started with an env file serves the first two tests (a dev server
 * costs a minute of CPU to start and compile its pages), a fresh one the last. The dev-server
 * tests run in this one file, in order, because they share Vite's cache folder.
 */
import { rmSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { startServerProcess, type ServerProcess } from '../support/server-process.ts'
import { expectEnvFileRead, FIRST_RUN_TIMEOUT, serverWithEnvFile, signUpAt } from './first-run.ts'
import { createJobOverApi } from './helpers.ts'

// A dev server compiles every page on first visit: slow on a busy machine, so generous bounds (for
// the hook that starts the shared server too).
test.describe.configure({ timeout: FIRST_RUN_TIMEOUT })

test.describe('a dev server started with an env file', () => {
  let server: ServerProcess
  let file: string
  test.beforeAll(async () => {
    ;({ server, file } = await serverWithEnvFile('development'))
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  test('the development server reads LOG_LEVEL and AGENT_MODEL from the env file', async ({ page }) => {
    await expectEnvFileRead(page, server, file)
  })

  test("the dev server's first /jobs loads only what the page shows: no chat code until it opens, not every icon", async ({
    page,
    browser,
  }) => {
    await signUpAt(page, server.baseUrl)
    // A developer's browser after `npm run dev`: signed in, nothing cached.
    const context = await browser.newContext({ storageState: await page.context().storageState() })
    const fresh = await context.newPage()
    const scripts: { path: string; bytes: number }[] = []
    fresh.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return
      const path = new URL(request.url()).pathname
      void request.sizes().then((sizes) => scripts.push({ path, bytes: sizes.responseBodySize }))
    })
    await fresh.goto(`${server.baseUrl}/jobs`)
    const toggle = fresh.getByRole('button', { name: 'Ask the agent' })
    await expect(toggle).toHaveAttribute('data-ready', 'true', { timeout: 120_000 })
    await fresh.waitForLoadState('networkidle')

    const deps = (name: string) => scripts.filter((s) => s.path.endsWith(`/.vite/deps/${name}.js`))
    // The chat's conversation (the AI SDK, zod, the Markdown renderer) waits for the chat.
    for (const name of ['ai', '@ai-sdk_react', 'zod', 'react-markdown', 'remark-gfm']) {
      expect(deps(name), `${name} loaded by /jobs before the chat opened`).toEqual([])
    }
    expect(scripts.some((s) => s.path.endsWith('/chat-session.tsx'))).toBe(false)
    // lucide-react pre-bundled whole is ~580 KiB (every icon); trimmed to app/'s icons, ~40 KiB.
    const [lucide] = deps('lucide-react')
    expect(lucide, 'lucide-react loaded').toBeDefined()
    expect(lucide!.bytes).toBeLessThan(150 * 1024)
    // 76 scripts before the chat was split off and the barrels trimmed; 56 after.
    expect(scripts.length).toBeLessThanOrEqual(64)

    // Opening the chat brings its code, and the composer takes the focus once it is there.
    await fresh.keyboard.press('ControlOrMeta+j')
    const composer = fresh.getByRole('complementary', { name: 'Agent chat' }).getByRole('textbox')
    await expect(composer).toBeFocused({ timeout: 60_000 })
    expect(deps('ai').length).toBe(1)
    await context.close()
  })
})

test('a fresh dev server does not reload the page during sign-up or the first visit of each page', async ({
  page,
}) => {
  // What `npm install && npm run dev` starts from: no pre-bundled dependencies yet.
  rmSync('node_modules/.vite', { recursive: true, force: true })
  const server: ServerProcess = await startServerProcess('development')
  try {
    let loads = 0
    page.on('load', () => loads++)
    // Vite's order to reload the page, on its HMR socket.
    const reloads: string[] = []
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        if (String(payload).includes('full-reload')) reloads.push(String(payload))
      }),
    )
    const signUps: number[] = []
    page.on('response', (res) => {
      if (res.url().endsWith('/_agent-native/auth/sign-up/email')) signUps.push(res.status())
    })

    await signUpAt(page, server.baseUrl)
    expect(signUps).toEqual([200])

    const job = await createJobOverApi(page, {
      name: 'digest',
      schedule: '0 7 * * 1-5',
      instructions: 'Summarise the day.',
    })
    const pages = [
      '/jobs',
      '/jobs/new',
      `/jobs/${job.id}`,
      '/workspace',
      '/settings/profile',
      '/settings/members',
      '/settings/models',
    ]
    for (const url of pages) {
      await page.goto(`${server.baseUrl}${url}`)
      await expect(page.locator('main')).toBeVisible()
      // Every module the page asked for has arrived. Vite holds a newly found dependency's module
      // until the re-optimisation it starts is done and sends its reload before releasing it, so
      // by now any reload this visit causes is on the socket: no fixed wait for it.
      await page.waitForLoadState('networkidle')
    }
    expect(reloads, 'Vite told the page to reload').toEqual([])
    expect(loads, 'one page load per visit: any more is Vite reloading the page').toBe(1 + pages.length)
    expect(server.output()).not.toMatch(/optimized dependencies changed|reloading/i)
  } finally {
    await server.stop()
  }
})
