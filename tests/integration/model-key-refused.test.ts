/**
 * A stored model key the provider refused (decision 0505). A key is checked when it is saved
 * (decision 0514), but it can be revoked the day after, and every call on it was then a 401 from
 * the provider: free for its owner, a request to the provider each time on the server's address,
 * and the person only ever told at the end of each turn. Now the first 401 is written on the key;
 * until it is saved again chat and Run now answer 409 `model_key_refused` before storing or calling
 * anything, a run fails with the same words without calling the model, and Settings → Models says
 * so. Real HTTP, real Postgres, the real scheduler and Anthropic provider against the fake Messages
 * API (which answers 401 to any key but the deployment's and those it was told to take, as the
 * real one answers a key that is no key, or no longer one).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { modelGrant } from '#server/agent/harness-grant.ts'
import { resolveModel } from '#server/agent/model.ts'
import { notifyJobsChanged } from '#server/db/signal.ts'
import { queryRows } from '#server/db/sql.ts'
import { handleHarnessRequest } from '#server/harness/endpoint.ts'
import { markModelKeyRefused } from '#server/keys/store.ts'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { pausedJob, runNow, waitForRun } from '#tests/support/runs.ts'
import { openOfflineSession } from '#tests/support/harness-session.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'

const KEY = 'sk-ant-deployment-key-refused'
const REVOKED_KEY = 'sk-ant-revoked-key-2222222222'
const REVOKED_ORG_KEY = 'sk-ant-revoked-org-key-3333333333'
const MODEL_KEYS = '/_agent-native/model-keys'
const REFUSED_AT = /at \d{4}-\d\d-\d\d \d\d:\d\d UTC \(401: invalid x-api-key\)/

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, scheduler: true })
}, 240_000)
afterAll(() => agent?.close())

const db = () => agent.app.server.db.db
const callsWith = (key: string) => agent.fake.requests.filter((r) => r.headers['x-api-key'] === key).length
const storedKey = async (client: ApiClient, scope: 'personal' | 'org') =>
  (await client.get<{ keys: any[] }>(MODEL_KEYS)).body.keys.find((k) => k.scope === scope)

/** Saves `key` while the provider takes it (its check passes), then has the provider revoke it. */
async function saveThenRevoke(client: ApiClient, scope: 'personal' | 'org', key: string) {
  agent.fake.acceptKey(key)
  const saved = await client.request('PUT', MODEL_KEYS, { scope, apiKey: key })
  expect(saved.status).toBe(200)
  expect(saved.body.check).toEqual({ ok: true })
  agent.fake.revokeKey(key)
}

/** Who was told of a refused key (`where` narrows it), one row per notification. */
const refusalNotices = (where = '') =>
  queryRows<{ user_id: string }>(
    db(),
    sql.raw(`select user_id from notifications where kind = 'key_refused' ${where} order by created_at`),
  )

/** What a chat request could leave behind: threads, messages and turns. */
const chatRows = async () =>
  queryRows(
    db(),
    sql`select (select count(*) from agent_threads)::int as threads,
               (select count(*) from agent_messages)::int as messages,
               (select count(*) from chat_turns)::int as turns`,
  )

describe('a personal key the provider refused', () => {
  it('is refused once by the provider, then by the server before anything is stored or sent', async () => {
    const client = agent.team.member.client
    await saveThenRevoke(client, 'personal', REVOKED_KEY)
    const jobId = await pausedJob(client, 'refused-key-job')
    const first = await runNow(client, jobId)
    expect(first.run.status).toBe('error')
    expect(first.run.error).toMatch(/rejected the API key \(401\)/)
    expect(callsWith(REVOKED_KEY)).toBe(1)
    expect((await storedKey(client, 'personal')).refused).toEqual({
      at: expect.any(String),
      reason: '401: invalid x-api-key',
    })

    // Retry and Run now are refused before anything is queued.
    const before = await snapshotTables(agent.app.server.db)
    for (const path of [`/_agent-native/runs/${first.run.id}/retry`, `/_agent-native/jobs/${jobId}/run`]) {
      const res = await client.post(path)
      expect(res.status, path).toBe(409)
      expect(res.body.error).toMatchObject({ code: 'model_key_refused' })
      expect(res.body.error.message).toMatch(/^Your Anthropic key was refused by the provider /)
      expect(res.body.error.message).toMatch(REFUSED_AT)
    }
    expect(await snapshotTables(agent.app.server.db)).toEqual(before)

    // A run queued before the refusal (behind another, say) fails saying why, without a call.
    await queryRows(
      db(),
      sql`insert into job_runs (id, job_id, org_id, trigger, scheduled_for, run_as_user_id, status)
          select 'run_queued_before_refusal', id, org_id, 'manual', now(), created_by, 'queued'
          from jobs where id = ${jobId}`,
    )
    await notifyJobsChanged(agent.app.server.db.db)
    const queued = await waitForRun(client, 'run_queued_before_refusal')
    expect(queued.run.status).toBe('error')
    expect(queued.run.error).toMatch(/^Your Anthropic key was refused by the provider /)
    expect(callsWith(REVOKED_KEY)).toBe(1)

    // The script goes on in chat: five messages, none stored, none sent.
    const chatBefore = await chatRows()
    for (let i = 0; i < 5; i++) {
      const turn = await sendChat(client, { message: userText(`and again ${i}`) })
      expect(turn.status).toBe(409)
      expect(turn.error).toMatchObject({ code: 'model_key_refused' })
      expect(turn.error!.message).toMatch(/^Your Anthropic key was refused by the provider /)
      expect(turn.error!.message).toMatch(REFUSED_AT)
      expect(turn.error!.message).toMatch(/save it again in Settings → Models/)
    }
    expect(await chatRows()).toEqual(chatBefore)
    expect(callsWith(REVOKED_KEY)).toBe(1)

    // They were told once, in the app, where to save it again (beside the answer, not before it).
    await expect.poll(refusalNotices).toHaveLength(1)
    const { notifications } = (await client.get('/_agent-native/notifications')).body
    expect(notifications).toMatchObject([
      { kind: 'key_refused', jobId: null, title: 'Your Anthropic key was refused', read: false },
    ])
    expect(notifications[0].body).toMatch(
      /^Your Anthropic key was refused by the provider .*Settings → Models/,
    )
    expect(await refusalNotices()).toEqual([{ user_id: agent.team.member.id }])
  })

  it('is used again once saved again, and a refusal of an earlier save does not stick to it', async () => {
    const client = agent.team.member.client
    expect((await storedKey(client, 'personal')).refused).not.toBeNull()
    const [old] = await queryRows<{ id: string; secret: string }>(
      db(),
      sql`select id, secret from model_keys where user_id = ${agent.team.member.id}`,
    )
    // Saved again (here the one key the fake takes, so the next turn is answered).
    expect((await client.request('PUT', MODEL_KEYS, { scope: 'personal', apiKey: KEY })).status).toBe(200)
    expect((await storedKey(client, 'personal')).refused).toBeNull()
    // A call on the earlier save that the provider refuses only now: not this key's refusal.
    await markModelKeyRefused(old!, '401: late answer about the earlier save')
    expect((await storedKey(client, 'personal')).refused).toBeNull()

    agent.fake.replyWhen('working again', { text: 'Hello again.' })
    const turn = await sendChat(client, { message: userText('working again?') })
    expect(turn.status).toBe(200)
    expect(JSON.stringify(turn.reply)).toContain('Hello again.')
  })

  it('shows on Settings → Models what was refused, when, and what to do', async () => {
    const client = agent.team.admin.client
    await saveThenRevoke(client, 'personal', REVOKED_KEY)
    await sendChat(client, { message: userText('one refusal for the page') })
    const page = await client.get<string>('/settings/models')
    expect(page.status).toBe(200)
    expect(page.body).toMatch(/data-testid="refused-personal"/)
    expect(page.body).toMatch(/The provider refused this key at .* \(401: invalid x-api-key\)/)
    expect(page.body).toMatch(/your own key, which the provider refused: calls fail until it is saved again/)
    expect((await client.request('DELETE', MODEL_KEYS, { scope: 'personal' })).status).toBe(204)
  })
})

describe("the organisation's key refused", () => {
  it('stops shared runs with words for the admin, and a harness call through the run endpoint records it', async () => {
    const admin = agent.team.admin.client
    await saveThenRevoke(admin, 'org', REVOKED_ORG_KEY)
    // A harness's call goes through the run's endpoint with the key the run resolved.
    const purpose = {
      kind: 'run' as const,
      runAs: 'shared' as const,
      userId: agent.team.admin.id,
      orgId: agent.team.orgId,
    }
    const grant = modelGrant(await resolveModel(purpose), { orgId: agent.team.orgId, cap: null })
    const opened = openOfflineSession({ grant })
    const body = { model: grant.modelId, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }
    const call = () =>
      handleHarnessRequest(
        opened.token,
        '/v1/messages',
        new Request('http://endpoint/v1/messages', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
        'socket',
      )
    expect((await call()).status).toBe(401)
    // The CLI tries again within its run: the same answer, from here, not from the provider.
    const again = await call()
    expect(again.status).toBe(401)
    expect(await again.json()).toMatchObject({ error: { type: 'authentication_error' } })
    opened.close()
    expect(callsWith(REVOKED_ORG_KEY)).toBe(1)
    expect((await storedKey(admin, 'org')).refused).toMatchObject({ reason: '401: invalid x-api-key' })
    // Told: the admins and owners, who can save it again (the admin's job met it); no member.
    const orgNotices = () => refusalNotices("and title = 'The organisation''s Anthropic key was refused'")
    await expect.poll(orgNotices).toHaveLength(2)
    expect((await orgNotices()).map((r) => r.user_id).sort()).toEqual(
      [agent.team.admin.id, agent.team.owner.id].sort(),
    )

    // Everyone sees it; a shared job's Run now is refused, naming who can fix it.
    expect((await storedKey(agent.team.member.client, 'org')).refused).not.toBeNull()
    expect((await agent.team.member.client.get<string>('/settings/models')).body).toMatch(
      /Stored: ••••3333, refused by the provider: it is not used until an admin saves it again\./,
    )
    const made = await admin.post('/_agent-native/jobs', {
      name: 'shared-on-refused-key',
      schedule: '0 7 * * *',
      instructions: 'Go.',
      enabled: false,
      scope: 'shared',
      runAs: 'shared',
    })
    expect(made.status).toBe(201)
    const res = await admin.post(`/_agent-native/jobs/${made.body.job.id}/run`)
    expect(res.status).toBe(409)
    expect(res.body.error.message).toMatch(/^The organisation's Anthropic key was refused by the provider /)
    expect(res.body.error.message).toMatch(/until an admin saves it again in Settings → Models/)
    expect(callsWith(REVOKED_ORG_KEY)).toBe(1)
  })
})
