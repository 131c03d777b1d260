/**
 * A person's notifications belong to one organisation each, and the Notifications page and the
 * bell show the active organisation's. "Mark all read" (POST /notifications without ids) marked the
 * person's notifications in every organisation read, so a failing job's alert in their other
 * organisation was cleared unseen; listed ids of another organisation's alerts were marked too.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const N = '/_agent-native/notifications'

let app: TestApp
let team: Team
let otherOrgId: string

beforeAll(async () => {
  app = await startTestApp()
  team = await createTeam(app)
  // Adam signed up into a workspace of his own before he joined the team, which is now active.
  const [own] = await queryRows<{ org_id: string }>(
    app.server.db.db,
    sql`select organization_id as org_id from member where user_id = ${team.admin.id} and organization_id <> ${team.orgId}`,
  )
  otherOrgId = own!.org_id
})
afterAll(() => app?.close())

async function alert(id: string, orgId: string) {
  await app.server.db.db.execute(sql`insert into notifications (id, user_id, org_id, kind, title, body)
    values (${id}, ${team.admin.id}, ${orgId}, 'failing', ${`${id} failed`}, 'the model refused')`)
}

const unreadIds = async () =>
  (
    await queryRows<{ id: string }>(
      app.server.db.db,
      sql`select id from notifications where user_id = ${team.admin.id} and read_at is null order by id`,
    )
  ).map((r) => r.id)

describe('marking notifications read in one organisation', () => {
  it("leaves the person's alerts in their other organisations unread, all or by id", async () => {
    await alert('ntf_here1', team.orgId)
    await alert('ntf_here2', team.orgId)
    await alert('ntf_elsewhere1', otherOrgId)
    await alert('ntf_elsewhere2', otherOrgId)
    expect((await team.admin.client.get(N)).body.unread).toBe(2)

    const byId = await team.admin.client.post(N, { ids: ['ntf_here1', 'ntf_elsewhere1'] })
    expect(byId.body).toEqual({ unread: 1 })
    expect(await unreadIds()).toEqual(['ntf_elsewhere1', 'ntf_elsewhere2', 'ntf_here2'])

    const all = await team.admin.client.post(N, {})
    expect(all.body).toEqual({ unread: 0 })
    expect(await unreadIds()).toEqual(['ntf_elsewhere1', 'ntf_elsewhere2'])
  })
})
