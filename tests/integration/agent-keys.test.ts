/**
 * Stored model keys: write-only over HTTP (masked on the way out), encrypted at rest, org keys
 * for admins only, and the precedence rules deciding whose key a chat or a run spends.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveModel, resolveModelKey, NoModelKeyError } from '#server/agent/model.ts'
import { getDbHandle } from '#server/db/client.ts'
import { env } from '#server/env.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import type { Team } from '#tests/support/team.ts'
import { queryRows } from '#server/db/sql.ts'

const K = '/_agent-native/model-keys'
const PERSONAL = 'sk-ant-personal-PLANTED-1111'
const ORG = 'sk-ant-org-PLANTED-2222'

// Saved keys are checked with the provider (decision 0514): the fake one, which takes any key.
let suite: AgentApp
beforeAll(async () => {
  suite = await startAgentApp({ key: '', anyKey: true })
}, 240_000)
afterAll(() => suite?.close())

const putKey = (who: keyof Team & string, body: object) =>
  suite.team[who as 'owner'].client.request('PUT', K, body)

describe('stored model keys', () => {
  it('are write-only: saved, listed and returned masked to the last 4 characters', async () => {
    const saved = await putKey('creator', { scope: 'personal', apiKey: PERSONAL })
    expect(saved.status).toBe(200)
    expect(saved.body.key).toMatchObject({ scope: 'personal', provider: 'anthropic', masked: '••••1111' })
    const listed = await suite.team.creator.client.get(K)
    expect(listed.body.keys).toEqual([expect.objectContaining({ scope: 'personal', masked: '••••1111' })])
    expect(JSON.stringify(saved.body) + JSON.stringify(listed.body)).not.toContain('PLANTED')
  })

  it('are encrypted at rest', async () => {
    const rows = await queryRows(getDbHandle().db, sql`select secret, last4 from model_keys`)
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(String(row.secret)).not.toContain('PLANTED')
      expect(Buffer.from(String(row.secret), 'base64').toString('latin1')).not.toContain('PLANTED')
    }
  })

  it('lets only admins and owners set the organisation key', async () => {
    const denied = await putKey('member', { scope: 'org', apiKey: ORG })
    expect(denied.status).toBe(403)
    const ok = await putKey('admin', { scope: 'org', apiKey: ORG })
    expect(ok.status).toBe(200)
    // Every member sees that an org key exists, masked.
    const seen = await suite.team.member.client.get(K)
    expect(seen.body.keys).toEqual([expect.objectContaining({ scope: 'org', masked: '••••2222' })])
  })

  it('rejects a malformed key with a 400 naming the field, and replaces on a second save', async () => {
    const bad = await putKey('creator', { scope: 'personal', apiKey: 'has spaces in it' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.field).toBe('apiKey')
    await putKey('owner', { scope: 'personal', apiKey: 'sk-first-key-0001' })
    await putKey('owner', { scope: 'personal', apiKey: 'sk-second-key-0002' })
    const listed = await suite.team.owner.client.get(K)
    expect(listed.body.keys.filter((k: { scope: string }) => k.scope === 'personal')).toEqual([
      expect.objectContaining({ masked: '••••0002' }),
    ])
  })

  it('can be removed (404 when there is none)', async () => {
    const first = await suite.team.owner.client.request('DELETE', K, { scope: 'personal' })
    expect(first.status).toBe(204)
    const again = await suite.team.owner.client.request('DELETE', K, { scope: 'personal' })
    expect(again.status).toBe(404)
  })
})

describe('whose key a call spends', () => {
  const withDeployment = { ...env(), ANTHROPIC_API_KEY: 'sk-deployment-3333' }
  const without = { ...env(), ANTHROPIC_API_KEY: undefined }
  const key = async (...args: Parameters<typeof resolveModelKey>) =>
    (await resolveModelKey(...args))?.source ?? null

  it('chat: the caller’s own key, else the deployment’s, never the organisation’s', async () => {
    expect(
      await key(
        { kind: 'chat', userId: suite.team.creator.id, orgId: suite.team.orgId },
        'anthropic',
        without,
      ),
    ).toBe('personal')
    expect(
      await key(
        { kind: 'chat', userId: suite.team.member.id, orgId: suite.team.orgId },
        'anthropic',
        withDeployment,
      ),
    ).toBe('deployment')
    expect(
      await key(
        { kind: 'chat', userId: suite.team.member.id, orgId: suite.team.orgId },
        'anthropic',
        without,
      ),
    ).toBeNull()
  })

  it('runAs creator: the creator’s key, else the deployment’s', async () => {
    const creatorRun = { kind: 'run' as const, runAs: 'creator' as const, orgId: suite.team.orgId }
    expect(await key({ ...creatorRun, userId: suite.team.creator.id }, 'anthropic', withDeployment)).toBe(
      'personal',
    )
    expect(await key({ ...creatorRun, userId: suite.team.member.id }, 'anthropic', withDeployment)).toBe(
      'deployment',
    )
  })

  it('runAs shared: the organisation’s key, else the deployment’s', async () => {
    const shared = { kind: 'run' as const, runAs: 'shared' as const, userId: suite.team.creator.id }
    expect(await key({ ...shared, orgId: suite.team.orgId }, 'anthropic', without)).toBe('org')
    expect(await key({ ...shared, orgId: suite.team.outsiderOrgId }, 'anthropic', withDeployment)).toBe(
      'deployment',
    )
  })

  it('an OpenAI-compatible server needs its base URL but may need no key', async () => {
    const local = {
      ...without,
      AGENT_MODEL: 'openai-compatible:llama3.2',
      OPENAI_COMPATIBLE_API_KEY: undefined,
    }
    const missing = await resolveModel(
      { kind: 'chat', userId: suite.team.member.id, orgId: suite.team.orgId },
      local,
    ).catch((e) => e)
    expect(missing).toBeInstanceOf(NoModelKeyError)
    expect(missing.message).toMatch(/OPENAI_COMPATIBLE_BASE_URL is not set/)
    const resolved = await resolveModel(
      { kind: 'chat', userId: suite.team.member.id, orgId: suite.team.orgId },
      { ...local, OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1' },
    )
    expect(resolved).toMatchObject({
      choice: { provider: 'openai-compatible', modelId: 'llama3.2' },
      keySource: 'none',
    })
    expect((resolved.model as { modelId: string }).modelId).toBe('llama3.2')
  })

  it('with no key at all, says exactly where to add one', async () => {
    const err = await resolveModel(
      { kind: 'chat', userId: suite.team.member.id, orgId: suite.team.orgId },
      without,
    ).catch((e) => e)
    expect(err).toBeInstanceOf(NoModelKeyError)
    expect(err.status).toBe(503)
    expect(err.message).toMatch(/Settings → Models/)
    expect(err.message).toMatch(/ANTHROPIC_API_KEY/)
  })
})
