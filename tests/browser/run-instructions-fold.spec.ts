/**
 * A run's page with a very long prompt (decision 0486): the instructions fold to their first
 * lines, so the agent's first tool step and its answer are on the first screen, at a laptop's and
 * a phone's size, light and dark; "Show all instructions" is a button the keyboard reaches that
 * unfolds the whole prompt and keeps the focus. A short prompt shows whole, with no button.
 */
import { randomBytes } from 'node:crypto'
import { expect, type Page } from '@playwright/test'
import { test } from './agent-server.ts'
import { axeFindings } from './axe.ts'
import { createJobOverApi, runToEnd, signUp, uniqueEmail } from './helpers.ts'
import { contrastOf, useTheme, VIEWPORTS } from './look.ts'

// Sign-up and two runs through the server's scheduler on a busy machine.
test.describe.configure({ timeout: 180_000 })

const SIZES = { laptop: { width: 1280, height: 800 }, phone: VIEWPORTS.phone }

/** A job with these instructions, run once to the end; its run page's address. */
async function ranJob(page: Page, baseURL: string, name: string, instructions: string): Promise<string> {
  const job = await createJobOverApi(page, { name, schedule: '0 7 1 1 *', instructions })
  const run = await runToEnd(page, baseURL, job.id)
  expect(run.status).toBe('success')
  return `/jobs/${job.id}/runs/${run.id}`
}

/** Whether the element's top edge is on the first screen of the page, unscrolled. */
async function onFirstScreen(page: Page, testId: string) {
  const top = await page
    .getByTestId(testId)
    .first()
    .evaluate((el) => el.getBoundingClientRect().top + window.scrollY)
  return top < page.viewportSize()!.height
}

test('a 3,000-word prompt folds: the tool step and answer are on the first screen, and it unfolds whole', async ({
  page,
  baseURL,
  fake,
}) => {
  const tag = randomBytes(3).toString('hex')
  fake.replyWhen(
    tag,
    { content: [{ type: 'tool_use', name: 'clock', input: {} }], stopReason: 'tool_use' },
    { text: `Done: the report is ready (${tag}).` },
  )
  await signUp(page, 'Fola Fold', uniqueEmail('fola'))
  const paragraph = 'Read every sign-up of yesterday and sort them by the country they came from. '
  const ending = `Finally, end with the word ZEBRA-${tag}.`
  const words = `${tag} ${paragraph.repeat(214)}\n\n${ending}`
  const longRun = await ranJob(page, baseURL!, `long-${tag}`, words)
  const wordCount = words.split(/\s+/).filter(Boolean).length
  expect(wordCount).toBeGreaterThan(3000)
  const hello = `HELLO-${randomBytes(3).toString('hex')}`
  fake.replyWhen(hello, { text: 'Hello.' })
  const shortRun = await ranJob(page, baseURL!, `short-${tag}`, `Say hello (${hello}).`)

  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, theme)
    for (const [size, viewport] of Object.entries(SIZES)) {
      const at = `${theme} ${size}`
      await page.setViewportSize(viewport)
      await page.goto(longRun)
      const transcript = page.getByTestId('transcript')
      await expect(transcript.getByText(`Done: the report is ready (${tag}).`), at).toBeVisible()
      expect(await onFirstScreen(page, 'tool-step'), `${at}: the tool step is on the first screen`).toBe(true)
      const answerTop = await transcript
        .getByText(`Done: the report is ready (${tag}).`)
        .evaluate((el) => el.getBoundingClientRect().top + window.scrollY)
      if (size === 'laptop')
        expect(answerTop, `${at}: the answer is on the first screen`).toBeLessThan(viewport.height)
      const instructions = page.getByTestId('instructions')
      await expect(instructions, at).toHaveAttribute('data-folded', 'true')
      // The fold's end is hidden; the toggle says how much there is.
      await expect(transcript.getByText(`ZEBRA-${tag}`), at).not.toBeInViewport()
      const toggle = page.getByRole('button', { name: /Show all instructions/ })
      await expect(toggle, at).toHaveText(
        `Show all instructions (${wordCount.toLocaleString('en-GB')} words)`,
      )
      await expect(toggle, at).toHaveAttribute('aria-expanded', 'false')
      expect(await contrastOf(toggle), `${at}: the toggle's contrast`).toBeGreaterThanOrEqual(4.5)
      if (size === 'laptop') expect(await axeFindings(page, `${at} run page, folded`)).toEqual([])

      // The keyboard reaches it (Tab from the element before it) and Enter unfolds the whole prompt.
      await page.getByRole('link', { name: `long-${tag}` }).focus()
      for (let i = 0; i < 20 && !(await toggle.evaluate((el) => el === document.activeElement)); i++)
        await page.keyboard.press('Tab')
      await expect(toggle, `${at}: Tab reaches the toggle`).toBeFocused()
      await page.keyboard.press('Enter')
      const fold = page.getByRole('button', { name: 'Fold instructions' })
      await expect(fold, at).toHaveAttribute('aria-expanded', 'true')
      await expect(fold, `${at}: the focus stays on the toggle`).toBeFocused()
      await expect(instructions, at).toHaveAttribute('data-folded', 'false')
      const clipped = await instructions.evaluate((el) => el.scrollHeight - el.clientHeight)
      expect(clipped, `${at}: nothing of the prompt is cut off`).toBe(0)
      await transcript.getByText(`ZEBRA-${tag}`).scrollIntoViewIfNeeded()
      await expect(transcript.getByText(`ZEBRA-${tag}`), at).toBeInViewport()

      // Folding again keeps the focus, and the toggle in view.
      await page.keyboard.press('Enter')
      await expect(toggle, at).toHaveAttribute('aria-expanded', 'false')
      await expect(toggle, at).toBeFocused()
      await expect(toggle, at).toBeInViewport()

      // A short prompt is shown as it was: whole, no toggle.
      await page.goto(shortRun)
      await expect(page.getByTestId('transcript').getByText(`Say hello (${hello}).`), at).toBeVisible()
      await expect(page.getByTestId('instructions'), at).toHaveCount(0)
      await expect(page.getByRole('button', { name: /instructions/ }), at).toHaveCount(0)
    }
  }
})
