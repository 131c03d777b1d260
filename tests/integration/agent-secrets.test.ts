/**
 * Model keys end to end: with none configured, chat and runs say exactly how to add one; stored
 * keys are spent by the right calls (the caller's, the creator's, the organisation's); and a
 * planted key never shows up in an HTTP response, a stored transcript, a run or a log line, even
 * when the provider echoes it back in an error.
 */
import { sql } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logger } from '#server/lib/logger.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { runNow } from '#tests/support/runs.ts'
import type { FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import type { Team } from '#tests/support/team.ts'
import type { TestApp } from '#tests/support/test-app.ts'
import { queryRows } from '#server/db/sql.ts'

const J = '/_agent-native/jobs'
const CREATOR_KEY = 'sk-ant-PLANTEDcreator-9f3a7c'
const ORG_KEY = 'sk-ant-PLANTEDorg-51d2e8'
const PLANTED = [CREATOR_KEY, ORG_KEY, 'PLANTED']

let agent: AgentApp
let app: TestApp
let team: Team
let fake: FakeAnthropic
/** Every HTTP response body this test saw, and every log line the server wrote. */
const responses: string[] = []
const logLines: string[] = []

beforeAll(async () => {
  // Capture the server's structured log at every level (it is silent in tests otherwise).
  const target = logger as unknown as Record<symbol, unknown>
  target[pino.symbols.streamSym] = { write: (line: string) => void logLines.push(line) }
  logger.level = 'trace'
  // No deployment key: only stored keys can be spent.
  agent = await startAgentApp({ key: '', anyKey: true, scheduler: true })
  ;({ app, team, fake } = agent)
})
afterAll(async () => {
  logger.level = 'silent'
  await agent?.close()
})

async function chat(who: 'creator' | 'member', text: string) {
  const turn = await sendChat(team[who].client, { message: userText(text) })
  responses.push(turn.raw)
  return turn
}

async function get(who: keyof Team & string, path: string) {
  const res = await team[who as 'owner'].client.get(path)
  responses.push(typeof res.body === 'string' ? res.body : JSON.stringify(res.body))
  return res
}

/** Runs the job as `who`, keeping the finished run's body with the other responses. */
async function runAs(who: 'creator' | 'admin', jobId: string) {
  const body = await runNow(team[who].client, jobId)
  responses.push(JSON.stringify(body))
  return body
}

let creatorJob: { id: string }
let sharedJob: { id: string }

describe('with no key anywhere', () => {
  it('chat answers with exactly how to add one', async () => {
    const turn = await chat('creator', 'hello')
    expect(turn.status).toBe(503)
    expect(turn.error?.message).toBe(
      'No Anthropic API key is configured. Add your own key in Settings → Models, or set ANTHROPIC_API_KEY ' +
        "in the server's .env (the deployment's key) and restart.",
    )
  })

  it('a runAs creator run fails saying the creator can add a key', async () => {
    creatorJob = (
      await team.creator.client.post(J, { name: 'mine', schedule: '0 7 * * *', instructions: 'Go.' })
    ).body.job
    const { run } = await runAs('creator', creatorJob.id)
    expect(run.status).toBe('error')
    expect(run.error).toMatch(
      /^No Anthropic API key for this run: the job's creator has no key of their own\./,
    )
    expect(run.error).toMatch(/Settings → Models, or set ANTHROPIC_API_KEY/)
  })

  it('a runAs shared run fails saying an admin can add the organisation key', async () => {
    sharedJob = (
      await team.admin.client.post(J, {
        name: 'team-job',
        schedule: '0 7 * * *',
        instructions: 'Go.',
        scope: 'shared',
        runAs: 'shared',
      })
    ).body.job
    const { run } = await runAs('admin', sharedJob.id)
    expect(run.status).toBe('error')
    expect(run.error).toMatch(/the job runs as shared, and the organisation has no key/)
    expect(run.error).toMatch(/An admin can add the organisation key in Settings → Models/)
    expect(fake.requests).toHaveLength(0)
  })
})

describe('with stored keys', () => {
  beforeAll(async () => {
    const put = (who: 'creator' | 'admin', body: object) =>
      team[who].client.request('PUT', '/_agent-native/model-keys', body)
    expect((await put('creator', { scope: 'personal', apiKey: CREATOR_KEY })).status).toBe(200)
    expect((await put('admin', { scope: 'org', apiKey: ORG_KEY })).status).toBe(200)
    fake.requests.length = 0
  })

  it('chat spends the caller’s own key, and never the organisation’s', async () => {
    const turn = await chat('creator', 'hi')
    expect(turn.status).toBe(200)
    expect(fake.requests.at(-1)!.headers['x-api-key']).toBe(CREATOR_KEY)
    // A member without a key of their own does not get to spend the organisation's.
    expect((await chat('member', 'hi')).status).toBe(503)
  })

  it('a runAs creator run spends the creator’s key; a runAs shared run the organisation’s', async () => {
    expect((await runAs('creator', creatorJob.id)).run.status).toBe('success')
    expect(fake.requests.at(-1)!.headers['x-api-key']).toBe(CREATOR_KEY)
    expect((await runAs('admin', sharedJob.id)).run.status).toBe('success')
    expect(fake.requests.at(-1)!.headers['x-api-key']).toBe(ORG_KEY)
  })

  it('masks a key the provider echoes back in an error, in chat and in runs', async () => {
    const echo = (request: { headers: Record<string, unknown> }) => ({
      status: 400,
      errorType: 'invalid_request_error',
      message: `key ${String(request.headers['x-api-key'])} is not allowed here`,
    })
    fake.reply(echo)
    const turn = await chat('creator', 'please fail')
    expect(turn.raw).toContain('key •••• is not allowed here')
    fake.reply(echo)
    const { run } = await runAs('admin', sharedJob.id)
    expect(run.error).toBe('The model call failed (400): key •••• is not allowed here')
  })

  it('never puts a key in a response, a transcript, a run, a job or a log line', async () => {
    const threads = await get('creator', '/_agent-native/agent/threads')
    for (const t of threads.body.threads) await get('creator', `/_agent-native/agent/threads/${t.id}`)
    await get('creator', '/_agent-native/model-keys')
    await get('admin', '/_agent-native/model-keys')
    await get('creator', `${J}/${creatorJob.id}/runs`)
    await get('admin', `${J}/${sharedJob.id}/runs`)
    const page = await team.admin.client.request('GET', '/settings/models', undefined, {
      accept: 'text/html',
    })
    expect(page.status).toBe(200)
    responses.push(String(page.body))
    expect(String(page.body).includes('d2e8'), 'the page shows the masked org key').toBe(true)

    const dump = async (table: string) =>
      JSON.stringify(await queryRows(app.server.db.db, sql.raw(`select * from ${table}`)))
    const stored = await Promise.all(
      ['agent_messages', 'agent_threads', 'job_runs', 'jobs', 'job_audit', 'resources', 'model_keys'].map(
        dump,
      ),
    )
    expect(stored[0]).toContain('please fail') // the dump is real: it holds the conversation
    expect(logLines.length).toBeGreaterThan(0)
    const haystacks = {
      responses: responses.join('\n'),
      database: stored.join('\n'),
      logs: logLines.join('\n'),
    }
    for (const [where, text] of Object.entries(haystacks)) {
      for (const secret of PLANTED) expect(text.includes(secret), `${secret} found in ${where}`).toBe(false)
    }
  })
})
