/**
 * `at` and `every` schedules through every door, over real HTTP: the agent's manage-jobs create
 * (the model is the fake Messages API, so what is tested is the tool input path and what the model
 * is told), the jobs API with its exactly-one-of rule, the job file, and the live preview.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import type { Team } from '#tests/support/team.ts'

const J = '/_agent-native/jobs'
const KEY = 'sk-ant-deployment-key-0077'

let agent: AgentApp
let team: Team
let fake: FakeAnthropic
beforeAll(async () => {
  agent = await startAgentApp({ key: KEY })
  ;({ team, fake } = agent)
})
afterAll(() => agent?.close())
beforeEach(() => {
  fake.requests.length = 0
})

/** Tomorrow's date in `zone`, as the model would work it out from the system prompt's "Now". */
const tomorrowIn = (zone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(Date.now() + 86_400_000))

describe('the agent', () => {
  it('turns "remind me tomorrow at 9" into a one-shot job through manage-jobs at', async () => {
    const day = tomorrowIn('Europe/Berlin')
    fake.reply(
      {
        content: [
          {
            type: 'tool_use' as const,
            name: 'manage-jobs',
            input: {
              action: 'create',
              name: 'call-the-bank',
              at: `${day}T09:00`,
              timezone: 'Europe/Berlin',
              instructions: 'Remind me to call the bank.',
            },
          },
        ],
      },
      { text: 'I will remind you tomorrow at 09:00.' },
    )
    const turn = await sendChat(team.member.client, {
      message: userText('remind me tomorrow at 9 to call the bank'),
    })
    expect(turn.status).toBe(200)
    const [step] = toolParts(turn.reply, 'manage-jobs')
    const [y, m, d] = day.split('-').map(Number) as [number, number, number]
    const month = new Date(Date.UTC(y, m - 1, d)).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })
    expect(step.output).toMatchObject({
      ok: true,
      summary: `Created job call-the-bank, once on ${d} ${month} ${y} at 09:00 (Europe/Berlin)`,
      job: { schedule: `at ${day}T09:00`, enabled: true },
    })

    // What the model was told: the at/every inputs, and how to read "tomorrow at 9".
    const [first] = fake.requests
    const manage = first!.body.tools.find((t: { name: string }) => t.name === 'manage-jobs')
    expect(manage.input_schema.properties.at.description).toMatch(/YYYY-MM-DDTHH:MM/)
    expect(manage.input_schema.properties.every.description).toMatch(/90m/)
    expect(manage.description).toMatch(/remind me tomorrow at 9/)
    expect(JSON.stringify(first!.body.system)).toMatch(/create the job with at:/)
  })

  it('gets the field-naming 400 when it gives both a schedule and every', async () => {
    fake.reply(
      {
        content: [
          {
            type: 'tool_use' as const,
            name: 'manage-jobs',
            input: { action: 'create', name: 'both', schedule: '0 9 * * *', every: '2h', instructions: 'x' },
          },
        ],
      },
      { text: 'Fixed.' },
    )
    const turn = await sendChat(team.member.client, { message: userText('every 2 hours') })
    const [step] = toolParts(turn.reply, 'manage-jobs')
    expect(step.output).toMatchObject({ ok: false, error: { status: 400, field: 'every' } })
  })
})

describe('the API', () => {
  it('accepts at and every keys and describes them', async () => {
    const once = await team.member.client.post(J, {
      name: 'xmas',
      at: '2026-12-24T09:00',
      timezone: 'Europe/Berlin',
      instructions: 'Merry Christmas.',
    })
    expect(once.status).toBe(201)
    expect(once.body.job).toMatchObject({
      schedule: 'at 2026-12-24T09:00',
      description: 'Once on 24 Dec 2026 at 09:00 (Europe/Berlin)',
    })
    const every = await team.member.client.post(J, { name: 'pulse', every: '90m', instructions: 'Check.' })
    expect(every.status).toBe(201)
    expect(every.body.job.description).toBe('Every 90 minutes')
    expect(new Date(every.body.job.nextRun).getTime() % 5_400_000).toBe(0)

    const patched = await team.member.client.patch(`${J}/${every.body.job.id}`, { every: '2h' })
    expect(patched.body.job).toMatchObject({ schedule: 'every 2h', description: 'Every 2 hours' })
  })

  it.each([
    [{ schedule: '0 9 * * *', at: '2026-12-24T09:00' }, 'at', /^at: give only one of schedule, at or every/],
    [{ at: '2026-12-24T09:00', every: '1h' }, 'every', /^every: give only one/],
    [{ every: '30s' }, 'every', /^every: the shortest interval is 1 minute/],
    [{ at: 'tomorrow 9am' }, 'at', /^at: must be a date and time like 2026-12-24T09:00/],
    [{ schedule: 'every 0m' }, 'schedule', /^schedule: every: the shortest interval/],
  ])('refuses %j with a 400 naming %s, and creates nothing', async (schedule, field, message) => {
    const res = await team.member.client.post(J, { name: 'bad-one', instructions: 'x', ...schedule })
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe(field)
    expect(res.body.error.message).toMatch(message)
    expect((await team.member.client.get(`${J}?q=bad-one`)).body.jobs).toEqual([])
  })

  it('reads and writes at/every keys in job files', async () => {
    const path = '/_agent-native/resources/personal/jobs/file-pulse.md'
    const put = await team.member.client.put(path, '---\nevery: 7m\n---\nPing.\n')
    expect(put.status).toBe(201)
    const text = await team.member.client.request('GET', path, undefined, { accept: 'text/markdown' })
    expect(text.body).toMatch(/^---\nevery: "7m"\n/)
    const both = await team.member.client.put(path, '---\nevery: 7m\nschedule: "* * * * *"\n---\nPing.\n')
    expect(both.status).toBe(400)
    expect(both.body.error.field).toBe('every')
  })

  it('previews at and every', async () => {
    const at = await team.member.client.get(
      '/_agent-native/schedule/preview?at=2030-12-24T09:00&timezone=Europe/Berlin',
    )
    expect(at.body).toEqual({
      valid: true,
      description: 'Once on 24 Dec 2030 at 09:00 (Europe/Berlin)',
      nextRuns: ['2030-12-24T08:00:00.000Z'],
    })
    const every = await team.member.client.get('/_agent-native/schedule/preview?schedule=every%2090m')
    expect(every.body).toMatchObject({ valid: true, description: 'Every 90 minutes' })
    expect(every.body.nextRuns).toHaveLength(5)
    const bad = await team.member.client.get('/_agent-native/schedule/preview?every=5s')
    expect(bad.body).toMatchObject({ valid: false, field: 'every' })
  })
})

describe('a one-off at a time that has passed', () => {
  it('is refused naming schedule, on create and when an edit moves it there; paused, it is kept', async () => {
    const c = team.member.client
    const before = (await c.get(J)).body.total
    const past = await c.post(J, { name: 'too-late', at: '2020-01-01T09:00', instructions: 'Say hi.' })
    expect(past.status).toBe(400)
    expect(past.body.error.field).toBe('schedule')
    expect(past.body.error.message).toMatch(/^schedule: 2020-01-01T09:00 in .+ has passed/)
    expect((await c.get(J)).body.total).toBe(before)

    const made = await c.post(J, {
      name: 'later',
      at: `${tomorrowIn('UTC')}T09:00`,
      timezone: 'UTC',
      instructions: 'Say hi.',
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const moved = await c.patch(`${J}/${made.body.job.id}`, { at: '2020-01-01T09:00' })
    expect(moved.status).toBe(400)
    expect(moved.body.error.field).toBe('schedule')
    expect(moved.body.error.message).toMatch(/has passed/)
    expect((await c.get(`${J}/${made.body.job.id}`)).body.job.schedule).toBe(made.body.job.schedule)

    // A used one-shot (the scheduler's "done" pause) resumed without a new time would never fire.
    await agent.app.server.db.db.execute(
      sql`update jobs set schedule = 'at 2020-01-01T09:00', suspended_reason = 'One-shot schedule done'
          where id = ${made.body.job.id}`,
    )
    const resumed = await c.patch(`${J}/${made.body.job.id}`, { enabled: true })
    expect(resumed.status).toBe(400)
    expect(resumed.body.error.message).toMatch(/has passed/)

    // A paused draft at any time is the person's business: it never claims to fire.
    const paused = await c.post(J, {
      name: 'archived',
      at: '2020-01-01T09:00',
      enabled: false,
      instructions: 'x',
    })
    expect(paused.status, JSON.stringify(paused.body)).toBe(201)
  })
})
