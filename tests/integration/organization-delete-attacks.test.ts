/**
 * Deleting an organisation (better-auth's POST /organization/delete, open to every owner, and
 * anyone who signs up owns a workspace) cleans up what it held outside its rows and renews none of
 * the limits it had (decision 0521). Before, its environments' records went by cascade and their
 * folders stayed on the host's disk, counted by nobody, and its place under USER_MAX_ORGANIZATIONS
 * was free at once: ORG_MAX_DISK_MB × USER_MAX_ORGANIZATIONS no longer bounded one person's disk,
 * and delete-and-make-again renewed every per-organisation daily limit; what its runs had spent on
 * the deployment's key went with their rows, and the day's budget with it (decision 0520). Written
 * as that owner.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { environmentTemplate } from '#server/environments/definition/definition.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import { pausedJob, runNow } from '#tests/support/runs.ts'
import { snapshotTables } from '#tests/support/snapshot.ts'

const R = '/_agent-native/resources'
const E = '/_agent-native/environments'
const ORG = '/_agent-native/auth/organization'
// 100,000 input and 10,000 output tokens on the test model: $0.45 a call, past a $1 budget in three.
const pricey = { input_tokens: 100_000, output_tokens: 10_000 }

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({
    key: 'sk-ant-organization-delete',
    environmentsDir: 'clockwork-organization-delete-',
    scheduler: true,
    env: {
      USER_MAX_ORGANIZATIONS: '2',
      DEPLOYMENT_KEY_MAX_USD_PER_DAY: '1',
      DEPLOYMENT_KEY_MAX_RUN_COST_USD: '10',
    },
  })
}, 120_000)
afterAll(() => agent?.close())

const db = () => agent.app.server.db.db

describe('an owner deleting an organisation', () => {
  // Long enough for the poll to say what stays, before the test's own limit.
  it(
    'removes its environments’ folders, and it still counts among theirs for the day',
    { timeout: 60_000 },
    async () => {
      const person = agent.team.outsider.client
      const made = await person.post(`${ORG}/create`, { name: 'Throwaway', slug: `throwaway-${Date.now()}` })
      expect(made.status, JSON.stringify(made.body)).toBe(200)
      const orgId = made.body.id as string
      expect((await person.post(`${ORG}/set-active`, { organizationId: orgId })).status).toBe(200)

      const put = await person.put(`${R}/personal/environments/box.md`, environmentTemplate('box'))
      expect(put.status, JSON.stringify(put.body)).toBe(201)
      const used = await person.post(`${E}/box/commands`, {
        command: 'head -c 1048576 /dev/zero > filler.bin && echo ok',
      })
      expect(used.status, JSON.stringify(used.body)).toBe(200)
      const [row] = await queryRows<{ dir: string }>(
        db(),
        sql`select dir from environments where id = ${used.body.environmentId}`,
      )
      const environments = path.join(agent.dir!, 'environments')
      expect(existsSync(path.join(environments, row!.dir, 'filler.bin'))).toBe(true)

      // At USER_MAX_ORGANIZATIONS (2: the workspace and this one) a third is refused.
      const third = await person.post(`${ORG}/create`, { name: 'Third', slug: `third-${Date.now()}` })
      expect(third.status).toBe(403)

      const deleted = await person.post(`${ORG}/delete`, { organizationId: orgId })
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200)
      expect(await queryRows(db(), sql`select id from environments where org_id = ${orgId}`)).toHaveLength(0)
      await expect.poll(() => existsSync(path.join(environments, orgId)), { timeout: 30_000 }).toBe(false)

      // Deleted today, it is still one of theirs: making another would renew its daily limits.
      const again = await person.post(`${ORG}/create`, { name: 'Again', slug: `again-${Date.now()}` })
      expect(again.status, JSON.stringify(again.body)).toBe(403)
      expect(again.body.error).toMatchObject({
        code: 'too_many_organizations',
        message: expect.stringMatching(/You own 1 organisations and deleted 1 in the last 24 hours/),
      })
    },
  )

  it('keeps what its runs spent on the deployment’s key: the day’s budget stays reached', async () => {
    const { client } = agent.team.member
    const made = await client.post(`${ORG}/create`, { name: 'Spender', slug: `spender-${Date.now()}` })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const orgId = made.body.id as string
    expect((await client.post(`${ORG}/set-active`, { organizationId: orgId })).status).toBe(200)
    const spender = await pausedJob(client, 'spender')
    agent.fake.replyWhen(
      'Do spender.',
      ...Array.from({ length: 24 }, () => ({ ...toolUse('clock', {}), usage: pricey })),
    )
    const { run } = await runNow(client, spender)
    expect(run.error).toMatch(/daily budget/)
    const calls = agent.fake.requests.length

    expect((await client.post(`${ORG}/set-active`, { organizationId: agent.team.orgId })).status).toBe(200)
    const deleted = await client.post(`${ORG}/delete`, { organizationId: orgId })
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200)

    const next = await pausedJob(client, 'after-the-delete')
    const again = await client.post(`/_agent-native/jobs/${next}/run`)
    expect(again.status, 'the budget forgot what the deleted organisation spent').toBe(429)
    expect(agent.fake.requests).toHaveLength(calls)
  })

  it('refuses to delete a person’s only organisation, changing nothing', async () => {
    const { client } = agent.team.outsider
    const before = await snapshotTables(agent.app.server.db)
    const refused = await client.post(`${ORG}/delete`, { organizationId: agent.team.outsiderOrgId })
    expect(refused.status, JSON.stringify(refused.body)).toBe(409)
    expect(refused.body.error).toMatchObject({ code: 'conflict', field: 'organizationId' })
    expect(await snapshotTables(agent.app.server.db)).toEqual(before)
  })
})
