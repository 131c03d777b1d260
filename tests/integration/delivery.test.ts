/**
 * Delivery of run results and failure alerts with real local servers, never the network: a
 * webhook receiver verifying Standard Webhooks signatures with the `standardwebhooks` library, a
 * failing receiver proving retries, and an SMTP server (`smtp-server`) receiving a run result, a
 * failure alert after 2 failures and a password-reset mail. Runs go through the real agent
 * executor against the fake model server.
 */
import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobs } from '#server/db/schema/index.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { startDeliveryScheduler, type DeliveryScheduler } from '#tests/support/delivery-scheduler.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { eventually } from '#tests/support/poll.ts'
import { startSmtpSink, type SmtpSink } from '#tests/support/smtp-sink.ts'
import type { Team } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'
import { startWebhookReceiver, type WebhookReceiver } from '#tests/support/webhook-receiver.ts'

const J = '/_agent-native/jobs'
const W = '/_agent-native/webhooks'
const KEY = 'sk-ant-deployment-delivery-01'

let agent: AgentApp
let app: TestApp
let team: Team
let fake: FakeAnthropic
let smtp: SmtpSink
let receiver: WebhookReceiver
let scheduler: DeliveryScheduler

beforeAll(async () => {
  smtp = await startSmtpSink()
  receiver = await startWebhookReceiver()
  agent = await startAgentApp({
    key: KEY,
    env: {
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Clockwork <clockwork@example.com>',
      INTEGRATIONS_ALLOW_HOSTS: receiver.hostPort,
    },
  })
  ;({ app, team, fake } = agent)
  // Retries wait 20 ms instead of minutes; everything else is the production path.
  scheduler = await startDeliveryScheduler(app)
  // Five sign-ups hash five passwords: slow on a busy 2-core machine.
}, 300_000)
afterAll(async () => {
  await scheduler?.stop()
  await agent?.close()
  await Promise.all([smtp?.close(), receiver?.close()])
})

async function register(kind: 'webhook' | 'slack', name: string, path: string) {
  const res = await team.admin.client.post(W, { kind, name, url: `${receiver.origin}${path}` })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.endpoint as { id: string; signingSecret?: string }
}

async function createJob(name: string, body: Record<string, unknown>) {
  const res = await team.creator.client.post(J, {
    name,
    schedule: '0 7 * * 1-5',
    instructions: `Instructions for ${name}`,
    ...body,
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.job as { id: string }
}

/** Runs the job now as its creator and waits for the run to end and its deliveries and alerts. */
const runNow = (jobId: string) => scheduler.runToTheEnd(team.creator.client, jobId)

const deliveries = async (runId: string) =>
  (await team.creator.client.get(`/_agent-native/runs/${runId}/deliveries`)).body.deliveries as {
    target: string
    attempt: number
    ok: boolean
    statusCode: number | null
    error: string | null
  }[]

describe('webhook and Slack endpoints', () => {
  it('admins register them (the signing secret shown once); members list names only, may not add', async () => {
    const created = await register('webhook', 'listing', '/listing')
    expect(created.signingSecret).toMatch(/^whsec_/)
    const list = await team.member.client.get(W)
    expect(list.status).toBe(200)
    expect(list.body.email).toEqual({ enabled: true })
    const entry = list.body.endpoints.find((e: { name: string }) => e.name === 'listing')
    expect(entry).toEqual({
      id: created.id,
      kind: 'webhook',
      name: 'listing',
      host: receiver.hostPort,
      createdAt: expect.any(String),
    })
    expect(JSON.stringify(list.body)).not.toContain('/listing')

    const refused = await team.member.client.post(W, {
      kind: 'webhook',
      name: 'mine',
      url: 'https://example.com/x',
    })
    expect(refused.status).toBe(403)
    const bad = await team.admin.client.post(W, { kind: 'webhook', name: 'Bad Name', url: 'ftp://x' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.field).toMatch(/name|url/)
    const dup = await team.admin.client.post(W, {
      kind: 'webhook',
      name: 'listing',
      url: `${receiver.origin}/x`,
    })
    expect(dup.status).toBe(409)
    expect((await team.member.client.delete(`${W}/${created.id}`)).status).toBe(403)
    expect((await team.admin.client.delete(`${W}/${created.id}`)).status).toBe(204)
    expect((await team.admin.client.delete(`${W}/${created.id}`)).status).toBe(404)
  })

  it('a job refuses a malformed notify target, naming the field', async () => {
    const res = await team.creator.client.post(J, {
      name: 'bad-notify',
      schedule: '0 7 * * *',
      instructions: 'x',
      notify: { onSuccess: ['pager:ops'] },
    })
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('notify.onSuccess.0')
  })
})

describe('a run result', () => {
  it('goes to a signed webhook, Slack and an email of a member; every attempt is recorded', async () => {
    const hook = await register('webhook', 'ops-feed', '/ops')
    await register('slack', 'team-chat', '/slack')
    const job = await createJob('daily-numbers', {
      notify: {
        onSuccess: ['webhook:ops-feed', 'slack:team-chat', `email:${team.member.email}`],
        onFailure: ['webhook:ops-feed'],
      },
    })
    fake.replyWhen('Instructions for daily-numbers', { text: '42 sign-ups yesterday.' })
    const run = await runNow(job.id)
    expect(run.status).toBe('success')

    const posted = receiver.received.find((r) => r.path === '/ops')!
    // The receiver's side of Standard Webhooks: verify() throws on a bad signature or stale timestamp.
    const event = new Webhook(hook.signingSecret!).verify(posted.body, {
      'webhook-id': String(posted.headers['webhook-id']),
      'webhook-timestamp': String(posted.headers['webhook-timestamp']),
      'webhook-signature': String(posted.headers['webhook-signature']),
    }) as { type: string; data: { job: { id: string }; run: { id: string; status: string }; result: string } }
    expect(event.type).toBe('run.succeeded')
    expect(event.data.run).toMatchObject({ id: run.id, status: 'success' })
    expect(event.data.job.id).toBe(job.id)
    expect(event.data.result).toBe('42 sign-ups yesterday.')
    // A tampered body fails verification with the same headers.
    expect(() =>
      new Webhook(hook.signingSecret!).verify(posted.body.replace('42', '43'), {
        'webhook-id': String(posted.headers['webhook-id']),
        'webhook-timestamp': String(posted.headers['webhook-timestamp']),
        'webhook-signature': String(posted.headers['webhook-signature']),
      }),
    ).toThrow()

    const slack = JSON.parse(receiver.received.find((r) => r.path === '/slack')!.body)
    expect(slack.text).toContain('42 sign-ups yesterday.')

    const mail = await smtp.waitFor(
      (m) => m.subject === 'daily-numbers: run succeeded',
      'the run result mail',
    )
    expect(mail.to).toEqual([team.member.email])
    expect(mail.text).toContain('42 sign-ups yesterday.')
    expect(mail.text).toContain(`/jobs/${job.id}/runs/${run.id}`)

    const attempts = await deliveries(run.id)
    expect(attempts.map((a) => [a.target, a.attempt, a.ok, a.statusCode]).sort()).toEqual(
      [
        ['webhook:ops-feed', 1, true, 200],
        ['slack:team-chat', 1, true, 200],
        [`email:${team.member.email}`, 1, true, null],
      ].sort(),
    )
    // Outsiders may not see the run's deliveries, nor may another member: the job is the creator's own.
    expect((await team.outsider.client.get(`/_agent-native/runs/${run.id}/deliveries`)).status).toBe(404)
    expect((await team.member.client.get(`/_agent-native/runs/${run.id}/deliveries`)).status).toBe(404)
  })

  it('is retried with backoff when the receiver fails, each attempt recorded with its status', async () => {
    await register('webhook', 'flaky', '/flaky')
    await register('webhook', 'down', '/down')
    receiver.answer('/flaky', 500, 503)
    receiver.answer('/down', 500, 500, 500, 500)
    const job = await createJob('retry-me', { notify: { onSuccess: ['webhook:flaky', 'webhook:down'] } })
    const run = await runNow(job.id)
    const attempts = await deliveries(run.id)
    const of = (target: string) =>
      attempts.filter((a) => a.target === target).map((a) => [a.attempt, a.ok, a.statusCode])
    expect(of('webhook:flaky')).toEqual([
      [1, false, 500],
      [2, false, 503],
      [3, true, 200],
    ])
    expect(of('webhook:down')).toEqual([
      [1, false, 500],
      [2, false, 500],
      [3, false, 500],
    ])
    const flaky = receiver.received.filter((r) => r.path === '/flaky')
    expect(flaky).toHaveLength(3)
    // Retries keep the message id (receivers deduplicate on it) and sign each attempt anew.
    expect(new Set(flaky.map((r) => r.headers['webhook-id'])).size).toBe(1)
  })

  it('lets go of a receiver that redirects with a body that never ends', async () => {
    // An admin of an organisation anyone can make points a webhook at their own server, which
    // answers 302 and then streams for ever: each attempt kept a connection (and the reading of
    // it) on the server until the process restarted.
    receiver.redirectEndlessly('/stream')
    await register('webhook', 'stream', '/stream')
    const job = await createJob('redirected', { notify: { onSuccess: ['webhook:stream'] } })
    const run = await runNow(job.id)
    const [attempt, ...more] = await deliveries(run.id)
    expect(more).toEqual([])
    expect(attempt).toMatchObject({ target: 'webhook:stream', ok: false, statusCode: null })
    expect(attempt!.error).toMatch(/refused by the outbound rule: Too many redirects/)
    await eventually('the endless answer’s connection closed', () => receiver.endlessOpen() === 0, 20_000)
  })

  it('is not emailed to someone outside the organisation, and the refusal is recorded', async () => {
    // Saving refuses an outsider (notify-email-targets.test.ts); a job saved before that rule, or
    // naming someone who has left since, is caught when sending.
    const job = await createJob('no-outsiders', { notify: { onSuccess: [`email:${team.member.email}`] } })
    await app.server.db.db
      .update(jobs)
      .set({ notify: { onSuccess: [`email:${team.outsider.email}`] } })
      .where(eq(jobs.id, job.id))
    const run = await runNow(job.id)
    expect(await deliveries(run.id)).toEqual([
      expect.objectContaining({
        attempt: 1,
        ok: false,
        error: `${team.outsider.email} is not a member of the organisation`,
      }),
    ])
    expect(
      smtp.mails.some((m) => m.to.includes(team.outsider.email) && m.subject.includes('no-outsiders')),
    ).toBe(false)
  })
})

describe('send_notification', () => {
  it("lets a run post to its job's own targets and refuses any other", async () => {
    const hook = await register('webhook', 'tool-hook', '/tool')
    const job = await createJob('mid-run', { notify: { onFailure: ['webhook:tool-hook'] } })
    const call = (target: string) => ({
      content: [
        {
          type: 'tool_use' as const,
          name: 'send_notification',
          input: { target, message: 'Heads up: the API is slow.' },
        },
      ],
    })
    fake.replyWhen('Instructions for mid-run', call('webhook:tool-hook'), call('webhook:ops-feed'), {
      text: 'Done.',
    })
    const run = await runNow(job.id)
    expect(run.status).toBe('success')
    const posted = receiver.received.filter((r) => r.path === '/tool')
    expect(posted).toHaveLength(1)
    const event = new Webhook(hook.signingSecret!).verify(posted[0]!.body, {
      'webhook-id': String(posted[0]!.headers['webhook-id']),
      'webhook-timestamp': String(posted[0]!.headers['webhook-timestamp']),
      'webhook-signature': String(posted[0]!.headers['webhook-signature']),
    }) as { type: string; data: { message: string } }
    expect(event).toMatchObject({
      type: 'agent.notification',
      data: { message: 'Heads up: the API is slow.' },
    })
    const results = fake.requests
      .flatMap((r) => r.body.messages as { role: string; content: unknown }[])
      .filter((m) => m.role === 'user' && JSON.stringify(m.content).includes('tool_result'))
      .map((m) => JSON.stringify(m.content))
    expect(results.some((r) => r.includes('is not one of this job') && r.includes('webhook:ops-feed'))).toBe(
      true,
    )
    expect(await deliveries(run.id)).toEqual([
      expect.objectContaining({ target: 'webhook:tool-hook', ok: true }),
    ])
  })
})

describe('failure alerts', () => {
  it("tell a shared job's creator and admins after 2 failures in a row, once per streak, and again in the app on recovery", async () => {
    // A shared job: a personal one's alerts go to its creator alone (outside-review-attacks.test.ts).
    const job = await createJob('fragile', { scope: 'shared' })
    const fail = { status: 400, errorType: 'invalid_request_error', message: 'the model refused' }
    fake.replyWhen('Instructions for fragile', fail, fail, fail, { text: 'Fine again.' })
    expect((await runNow(job.id)).status).toBe('error')
    const alertSubject = '[Clockwork] fragile failed 2 times in a row'
    expect(smtp.mails.some((m) => m.subject === alertSubject)).toBe(false)

    expect((await runNow(job.id)).status).toBe('error')
    const alert = await smtp.waitFor((m) => m.subject === alertSubject, 'the failure alert')
    expect(alert.text).toContain('the model refused')
    const told = smtp.mails
      .filter((m) => m.subject === alertSubject)
      .flatMap((m) => m.to)
      .sort()
    expect(told).toEqual([team.owner.email, team.admin.email, team.creator.email].sort())
    const inbox = await team.creator.client.get('/_agent-native/notifications')
    expect(inbox.body.unread).toBe(1)
    expect(inbox.body.notifications[0]).toMatchObject({ jobId: job.id, kind: 'failing', read: false })
    // The plain member is not an admin and not the creator.
    expect((await team.member.client.get('/_agent-native/notifications')).body.unread).toBe(0)

    expect((await runNow(job.id)).status).toBe('error')
    expect(smtp.mails.filter((m) => m.subject === alertSubject)).toHaveLength(3)
    expect((await team.creator.client.get('/_agent-native/notifications')).body.unread).toBe(1)

    expect((await runNow(job.id)).status).toBe('success')
    const after = await team.creator.client.get('/_agent-native/notifications')
    expect(after.body.notifications.map((n: { kind: string }) => n.kind)).toEqual(['recovered', 'failing'])
    // Listed, not mailed: it came within ten minutes of the alert's mail, which said so (decision 0525).
    expect(alert.text).toContain('listed in Clockwork')
    expect(smtp.mails.filter((m) => m.subject === '[Clockwork] fragile recovered')).toEqual([])
    const read = await team.creator.client.post('/_agent-native/notifications', {})
    expect(read.body).toEqual({ unread: 0 })
  })
})

describe('auth mail', () => {
  it('sends a password-reset mail whose link lets the person choose a new password', async () => {
    const res = await app.client().post('/_agent-native/auth/request-password-reset', {
      email: team.member.email,
      redirectTo: '/reset-password',
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const mail = await smtp.waitFor(
      (m) => m.to.includes(team.member.email) && m.subject === 'Reset your Clockwork password',
      'the reset mail',
    )
    const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1]
    expect(token).toBeDefined()
    const reset = await app.client().post('/_agent-native/auth/reset-password', {
      newPassword: 'a-brand-new-password',
      token,
    })
    expect(reset.status, JSON.stringify(reset.body)).toBe(200)
    const signIn = await app.client().post('/_agent-native/auth/sign-in/email', {
      email: team.member.email,
      password: 'a-brand-new-password',
    })
    expect(signIn.status).toBe(200)
  })

  it('mails invitations (the link flow stays) and verification on sign-up', async () => {
    await smtp.waitFor(
      (m) => m.to.includes(team.admin.email) && /invited you to/.test(m.subject),
      'an invitation',
    )
    const members = await team.owner.client.request('GET', '/settings/members', undefined, {
      accept: 'text/html',
    })
    expect(String(members.body)).toContain('The link is emailed to them; you can share it yourself too.')
    const verify = await smtp.waitFor(
      (m) => m.to.includes(team.creator.email) && /Confirm your email/.test(m.subject),
      'a verification mail',
    )
    expect(verify.text).toContain('/verify-email')
  })
})
