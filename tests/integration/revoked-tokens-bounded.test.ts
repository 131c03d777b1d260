/**
 * Live access and machine tokens are capped, but a revoked token's row stayed forever: a member's
 * script that made and revoked tokens in a loop grew a table every organisation shares without
 * end. Now each person keeps only their KEEP_REVOKED_TOKENS most recently revoked tokens of each
 * kind (decision 0463). Written as the attack, over real HTTP on real Postgres.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

/** The bound, written out: the attack is the same whatever the code says. */
const KEEP_REVOKED_TOKENS = 20
const LOOPS = KEEP_REVOKED_TOKENS + 10

let app: TestApp
let team: Team
beforeAll(async () => {
  app = await startTestApp()
  team = await createTeam(app)
})
afterAll(() => app?.close())

const A = '/_agent-native/access-tokens'
const M = '/_agent-native/machines/tokens'

/** A person's stored tokens of one table: names of the revoked ones (newest revoke first), and the live count. */
async function stored(table: 'access_tokens' | 'machine_tokens', ownerId: string) {
  const owner = table === 'access_tokens' ? sql`user_id` : sql`owner_id`
  const rows = await queryRows<{ name: string; revoked: boolean }>(
    app.server.db.db,
    sql`select name, revoked_at is not null as revoked from ${sql.identifier(table)}
        where ${owner} = ${ownerId} order by revoked_at desc nulls first, id desc`,
  )
  return {
    revoked: rows.filter((r) => r.revoked).map((r) => r.name),
    live: rows.filter((r) => !r.revoked).length,
  }
}

/** Makes a token and revokes it, `times` over; names `<prefix> <i>`. */
async function makeAndRevoke(client: ApiClient, path: string, body: object, prefix: string, times: number) {
  for (let i = 0; i < times; i++) {
    const made = await client.post(path, { ...body, name: `${prefix} ${i}` })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect((await client.delete(`${path}/${made.body.summary.id}`)).status).toBe(204)
  }
}

const newest = (prefix: string) =>
  Array.from({ length: KEEP_REVOKED_TOKENS }, (_, i) => `${prefix} ${LOOPS - 1 - i}`)

describe('a member who makes and revokes tokens in a loop', () => {
  it(`keeps only their ${KEEP_REVOKED_TOKENS} most recently revoked access tokens`, async () => {
    const { client, id } = team.member
    await makeAndRevoke(client, A, { scopes: ['jobs:read'] }, 'loop', LOOPS)
    // Unfixed, all LOOPS revoked rows stayed.
    expect(await stored('access_tokens', id)).toEqual({ revoked: newest('loop'), live: 0 })
    // Another person's revoked tokens are theirs to count.
    await makeAndRevoke(team.creator.client, A, { scopes: ['jobs:read'] }, 'theirs', 1)
    expect((await stored('access_tokens', id)).revoked).toHaveLength(KEEP_REVOKED_TOKENS)
    expect((await stored('access_tokens', team.creator.id)).revoked).toEqual(['theirs 0'])
  })

  it(`keeps only their ${KEEP_REVOKED_TOKENS} most recently revoked machine tokens`, async () => {
    const { client, id } = team.member
    await makeAndRevoke(client, M, {}, 'box', LOOPS)
    expect(await stored('machine_tokens', id)).toEqual({ revoked: newest('box'), live: 0 })
  })

  it('keeps the bound when an admin reset link revokes them all, over and over', async () => {
    const { client, id } = team.member
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 15; i++) {
        expect((await client.post(A, { name: `r${round} a${i}`, scopes: ['jobs:read'] })).status).toBe(201)
        expect((await client.post(M, { name: `r${round} m${i}` })).status).toBe(201)
      }
      const reset = await team.owner.client.post(`/_agent-native/members/${id}/reset-link`, {})
      expect(reset.status, JSON.stringify(reset.body)).toBe(201)
    }
    for (const table of ['access_tokens', 'machine_tokens'] as const) {
      const after = await stored(table, id)
      expect(after.live, table).toBe(0)
      expect(after.revoked, table).toHaveLength(KEEP_REVOKED_TOKENS)
    }
  })
})
