/**
 * The attack: a job's `email:` targets and its run's send_notification mail an organisation
 * member's address from the deployment's SMTP, with text the job's author controls (the run's
 * result, the agent's message). Nobody verifies the address an account signs up with, and anyone
 * who signs up owns a workspace: an account made under a stranger's address is the creator of its
 * own jobs, and joined through an invitation it is a member of the attacker's organisation too.
 * Before, nothing paced those mails: every run now (a job every minute) was a mail, twenty
 * send_notification calls in one run were twenty, and every organisation the address joined
 * mailed it on top. The safe outcome (decision 0531): one address gets at most 5 job mails in
 * 10 minutes and 100 in a day from the whole deployment; the rest are recorded on the run's
 * deliveries as `paced`, saying when the address may be mailed again, and not retried; the agent
 * reads the same as a tool failure. With one allowance per address, another member's job every
 * minute used it up and held back the person's own job mail to themselves for up to a day; the
 * person's own jobs now have an allowance of their own beside everyone else's (decision 0536), so
 * the deployment mails an address at most twice those figures. Real PostgreSQL, real HTTP, the real scheduler with the agent
 * executor and the delivery hooks, the fake model server and a real SMTP server.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '#tests/support/api-client.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { startDeliveryScheduler, type DeliveryScheduler } from '#tests/support/delivery-scheduler.ts'
import { pausedJob } from '#tests/support/runs.ts'
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts'
import { inviteAndAccept } from '#tests/support/team.ts'

const KEY = 'sk-ant-deployment-job-mail-flood-01'
// Every test signs people up first (password hashes) and runs a job many times.
const SLOW = 120_000

let agent: AgentApp<false>
let smtp: SmtpSink
let scheduler: DeliveryScheduler

beforeAll(async () => {
  smtp = await startSmtpSink()
  agent = await startAgentApp({
    key: KEY,
    team: false,
    env: { SMTP_URL: smtp.url, SMTP_FROM: 'Clockwork <clockwork@example.com>' },
  })
  // Retries wait 20 ms instead of minutes: a paced mail that were retried would show at once.
  scheduler = await startDeliveryScheduler(agent.app)
}, SLOW)
afterAll(async () => {
  await scheduler?.stop()
  await agent?.close()
  await smtp?.close()
})

type Person = { client: ApiClient; email: string }

/** Someone signs up under `email` (nobody checks it is theirs) and owns a workspace of their own. */
async function signUpAs(email: string): Promise<Person> {
  const client = agent.app.client()
  await client.signUp('Mallory', email)
  return { client, email }
}

/** A stranger's address nobody else in this file uses, and Mallory signed up under it. */
async function strangersAccount() {
  const address = `stranger-${randomBytes(3).toString('hex')}@example.com`
  return { address, mallory: await signUpAs(address) }
}

const unique = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex')}`

/** Runs the job now as `who` and waits until the run's deliveries are done (retries included). */
const runToTheEnd = (who: Person, jobId: string) => scheduler.runToTheEnd(who.client, jobId)

/** A job that would run every minute (paused here: the test runs it now, again and again). */
const everyMinute = (who: Person, name: string, notify: unknown) =>
  pausedJob(who.client, name, { schedule: '* * * * *', instructions: `Instructions for ${name}`, notify })

/** The job mails `address` received, however it was spelt: each names its job in the subject. */
const jobMailsTo = (address: string, job: string) =>
  smtp.mails.filter(
    (m) => m.to.some((to) => to.toLowerCase() === address) && m.subject.startsWith(`${job}: `),
  )

type Attempt = {
  target: string
  attempt: number
  ok: boolean
  outcome: string
  pacedUntil: string | null
  error: string | null
}
const deliveries = async (who: Person, runId: string) =>
  (await who.client.get(`/_agent-native/runs/${runId}/deliveries`)).body.deliveries as Attempt[]

describe("a job mailing a stranger's address", () => {
  it(
    'run again and again mails it five times, and lists the rest as paced, not retried',
    async () => {
      const { address, mallory } = await strangersAccount()
      const name = unique('flood')
      const id = await everyMinute(mallory, name, { onSuccess: [`email:${address}`] })
      const runs = []
      for (let i = 0; i < 12; i++) runs.push(await runToTheEnd(mallory, id))
      expect(runs.map((r) => r.status)).toEqual(Array(12).fill('success'))

      expect(jobMailsTo(address, name)).toHaveLength(5)
      const last = await deliveries(mallory, runs.at(-1)!.id)
      expect(last).toEqual([
        expect.objectContaining({ target: `email:${address}`, attempt: 1, ok: false, outcome: 'paced' }),
      ])
      const until = new Date(last[0]!.pacedUntil!)
      expect(until.getTime()).toBeGreaterThan(Date.now())
      expect(last[0]!.error).toContain(address)
      expect(last[0]!.error).toContain(until.toISOString())
      const first = await deliveries(mallory, runs[0]!.id)
      expect(first).toEqual([expect.objectContaining({ ok: true, outcome: 'delivered', pacedUntil: null })])

      // Deleting the job (its runs and their attempts with it) and making it again gives nothing back.
      expect((await mallory.client.delete(`/_agent-native/jobs/${id}`)).status).toBe(204)
      const again = await everyMinute(mallory, name, { onSuccess: [`email:${address}`] })
      const run = await runToTheEnd(mallory, again)
      expect((await deliveries(mallory, run.id)).map((d) => d.outcome)).toEqual(['paced'])
      expect(jobMailsTo(address, name)).toHaveLength(5)
    },
    SLOW,
  )

  it(
    'from its own account and two people of another organisation mails it five times from each side',
    async () => {
      const { address, mallory } = await strangersAccount()
      // Trudy's organisation invites the address, and Mallory (who holds its account) accepts; Uma joins it too.
      const trudy = await signUpAs(`${unique('trudy')}@example.com`)
      const uma = await signUpAs(`${unique('uma')}@example.com`)
      const session = await trudy.client.get('/_agent-native/auth/get-session')
      const orgId = session.body.session.activeOrganizationId as string
      await inviteAndAccept(trudy.client, mallory, orgId)
      await inviteAndAccept(trudy.client, uma, orgId)
      await uma.client.post('/_agent-native/auth/organization/set-active', { organizationId: orgId })
      const others = [trudy, uma]

      const tag = unique('pair')
      const own = await everyMinute(mallory, `own-${tag}`, { onSuccess: [`email:${address}`] })
      const theirs = await Promise.all(
        others.map((other, i) =>
          everyMinute(other, `theirs${i}-${tag}`, { onSuccess: [`email:${address}`] }),
        ),
      )
      for (let i = 0; i < 6; i++) {
        await runToTheEnd(mallory, own)
        for (const [j, other] of others.entries()) await runToTheEnd(other, theirs[j]!)
      }
      // The account's own jobs have their allowance, everyone else's share the other: at most
      // twice 0531's figures reach the address from the whole deployment.
      expect(jobMailsTo(address, `own-${tag}`)).toHaveLength(5)
      const fromOthers = [...jobMailsTo(address, `theirs0-${tag}`), ...jobMailsTo(address, `theirs1-${tag}`)]
      expect(fromOthers).toHaveLength(5)
    },
    SLOW,
  )

  it(
    'listed ten times in one job, spelt ten ways, is mailed five times when the run ends',
    async () => {
      // The ten targets are sent at the same instant: the pace must hold for mails sent at once.
      const { address, mallory } = await strangersAccount()
      const spellings = Array.from({ length: 10 }, (_, i) =>
        [...address].map((c, j) => ((i >> (j % 4)) & 1 ? c.toUpperCase() : c)).join(''),
      )
      const name = unique('spelt')
      const id = await everyMinute(mallory, name, { onSuccess: spellings.map((s) => `email:${s}`) })
      const run = await runToTheEnd(mallory, id)
      expect(jobMailsTo(address, name)).toHaveLength(5)
      const outcomes = (await deliveries(mallory, run.id)).map((d) => d.outcome).sort()
      expect(outcomes).toEqual([...Array(5).fill('delivered'), ...Array(5).fill('paced')])
    },
    SLOW,
  )
})

describe("another member's job mailing a person until paced", () => {
  it(
    "holds back only other people's mail: the person's own job still mails them, result and note",
    async () => {
      // Vera signs up under her own address; Mallory's organisation invites her and she joins.
      const vera = await signUpAs(`${unique('vera')}@example.com`)
      const mallory = await signUpAs(`${unique('mallory')}@example.com`)
      const session = await mallory.client.get('/_agent-native/auth/get-session')
      await inviteAndAccept(mallory.client, vera, session.body.session.activeOrganizationId as string)

      // Mallory's job every minute mails Vera until her address's pace holds it back.
      const tag = unique('crowd')
      const theirs = await everyMinute(mallory, `theirs-${tag}`, { onSuccess: [`email:${vera.email}`] })
      for (let i = 0; i < 6; i++) await runToTheEnd(mallory, theirs)
      expect(jobMailsTo(vera.email, `theirs-${tag}`)).toHaveLength(5)

      // Vera's own job mails her own address: its result and a note from its agent both go.
      const own = `own-${tag}`
      const id = await everyMinute(vera, own, { onSuccess: [`email:${vera.email}`] })
      agent.fake.replyWhen(
        `Instructions for ${own}`,
        {
          content: [
            {
              type: 'tool_use',
              name: 'send_notification',
              input: { target: `email:${vera.email}`, subject: `${own}: a note`, message: 'Hello me.' },
            },
          ],
        },
        { text: 'Done.' },
      )
      const run = await runToTheEnd(vera, id)
      expect(run.status).toBe('success')
      const outcomes = (await deliveries(vera, run.id)).map((d) => d.outcome)
      expect(outcomes).toEqual(['delivered', 'delivered'])
      expect(jobMailsTo(vera.email, own)).toHaveLength(2)

      // Mallory's job is still held back: Vera's own mail took nothing from it and gave it nothing.
      const later = await runToTheEnd(mallory, theirs)
      expect((await deliveries(mallory, later.id)).map((d) => d.outcome)).toEqual(['paced'])
    },
    SLOW,
  )
})

describe('send_notification called twenty times in one run', () => {
  it(
    'mails the address five times and tells the agent why the others were not sent',
    async () => {
      const { address, mallory } = await strangersAccount()
      const name = unique('notes')
      // onFailure only: the run's own result is not mailed, only the agent's calls are.
      const id = await everyMinute(mallory, name, { onFailure: [`email:${address}`] })
      const call = (i: number) => ({
        type: 'tool_use' as const,
        name: 'send_notification',
        input: { target: `email:${address}`, subject: `${name}: note ${i}`, message: `Buy now (${i}).` },
      })
      agent.fake.replyWhen(
        `Instructions for ${name}`,
        { content: Array.from({ length: 20 }, (_, i) => call(i)) },
        { text: 'Done.' },
      )
      const run = await runToTheEnd(mallory, id)
      expect(run.status).toBe('success')
      expect(jobMailsTo(address, name)).toHaveLength(5)

      const attempts = await deliveries(mallory, run.id)
      expect(attempts).toHaveLength(20)
      expect(attempts.filter((a) => a.outcome === 'paced')).toHaveLength(15)
      // What the agent read back: fifteen failures saying the address was mailed too often.
      const results = agent.fake.requests
        .flatMap((r) => r.body.messages as { role: string; content: unknown }[])
        .filter((m) => m.role === 'user' && JSON.stringify(m.content).includes(address))
        .flatMap((m) => (Array.isArray(m.content) ? m.content : []) as { type: string; content?: unknown }[])
        .filter((p) => p.type === 'tool_result')
        .map((p) => JSON.stringify(p.content))
      expect(results.filter((r) => r.includes('email_paced'))).toHaveLength(15)
    },
    SLOW,
  )
})
