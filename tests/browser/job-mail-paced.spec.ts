/**
 * A job's mail held back by its address's pace (decision 0531), as the run page shows it: a job
 * that mails its creator's address when it succeeds is run six times on a server with mail on (a
 * real SMTP server of this spec's own; the shared server has none). Five mails fill the address's
 * ten minutes, so the sixth run's is recorded as paced, and its page says Held back, why, and
 * from when the address may be mailed again.
 */
import { expect } from '@playwright/test'
import { formatExact } from '#app/lib/time.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'
import { test as agentTest } from './agent-server.ts'
import { createJobOverApi, runToEnd, signUp, uniqueEmail } from './helpers.ts'
import { contrastOf, textsBelowAA, useTheme } from './look.ts'

const test = agentTest.extend<object, { smtp: SmtpSink }>({
  smtp: [
    async ({}, use) => {
      const smtp = await startSmtpSink()
      await use(smtp)
      await smtp.close()
    },
    { scope: 'worker' },
  ],
  serverEnv: [
    async ({ smtp }, use) => use({ SMTP_URL: smtp.url, SMTP_FROM: 'Clockwork <clockwork@example.com>' }),
    { scope: 'worker' },
  ],
})

// Sign-up and six runs, each with its mail, on a busy machine.
test.describe.configure({ timeout: 180_000 })

const ZONE = 'Europe/Berlin'

type Attempt = { target: string; outcome: string; pacedUntil: string | null }

test('a run whose mail the address’s pace held back says Held back, why and until when, to a screen reader, light and dark', async ({
  page,
  baseURL,
  smtp,
}) => {
  const email = uniqueEmail('pia')
  await signUp(page, 'Pia Paced', email)
  const { id: jobId } = await createJobOverApi(page, {
    name: 'paced-digest',
    schedule: '0 7 * * 1-5',
    timezone: ZONE,
    instructions: 'Summarise the sign-ups.',
    notify: { onSuccess: [`email:${email}`] },
  })

  const deliveries = async (runId: string) =>
    (await (await page.request.get(`/_agent-native/runs/${runId}/deliveries`)).json()).deliveries as Attempt[]
  // Each run's mail is waited for before the next run, so the sixth is the one held back.
  let runId = ''
  for (const outcome of ['delivered', 'delivered', 'delivered', 'delivered', 'delivered', 'paced']) {
    const run = await runToEnd(page, baseURL!, jobId)
    expect(run.status, run.error ?? '').toBe('success')
    await expect
      .poll(async () => (await deliveries(run.id)).map((d) => d.outcome), { timeout: 30_000 })
      .toEqual([outcome])
    runId = run.id
  }
  // Sent: five of the six (besides the sign-up's confirmation mail).
  expect(
    smtp.mails.filter((m) => m.to.includes(email) && m.subject.startsWith('paced-digest: ')),
  ).toHaveLength(5)
  const [paced] = await deliveries(runId)
  const until = new Date(paced!.pacedUntil!)
  expect(until.getTime()).toBeGreaterThan(Date.now())

  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, theme)
    await page.goto(`/jobs/${jobId}/runs/${runId}`)
    const row = page
      .getByTestId('deliveries')
      .getByRole('row')
      .filter({ hasText: `email:${email}` })
    // What a screen reader gets: the target, the attempt, and in the outcome's cell the badge,
    // why, and from when (in the job's zone) the address may be mailed again.
    await expect(row, theme).toMatchAriaSnapshot(`
      - row:
        - cell "email:${email}"
        - cell "1"
        - cell "Held back Too many job mails to this address recently; it may be mailed again from ${formatExact(until, { timeZone: ZONE })} (${ZONE})"
        - cell /\\d+ ms/
        - cell
    `)
    const badge = row.getByText('Held back', { exact: true })
    await expect(badge, theme).toBeVisible()
    expect(await contrastOf(badge), theme).toBeGreaterThanOrEqual(4.5)
    expect(await textsBelowAA(page), theme).toEqual([])
  }
})
