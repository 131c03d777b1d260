/**
 * A person owns at most USER_MAX_ORGANIZATIONS organisations (decision 0488). Every organisation
 * has its own limits, so with open sign-up a script making organisations without end would hold
 * those limits without end. Written as the attack: one account asking better-auth's create endpoint
 * for one organisation after another. Being a member of others' organisations is not counted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const LIMIT = 3

let app: TestApp
let team: Team

beforeAll(async () => {
  app = await startTestApp({ env: { USER_MAX_ORGANIZATIONS: String(LIMIT) } })
  team = await createTeam(app)
})

afterAll(() => app?.close())

const create = (client: Team['member']['client'], slug: string) =>
  client.post('/_agent-native/auth/organization/create', { name: `Org ${slug}`, slug })

it('refuses the organisation past the limit with 403 too_many_organizations, storing nothing', async () => {
  const { member } = team
  // The member owns their own workspace (one), and belongs to the team's organisation as a member.
  const made = []
  for (let i = 0; i < 5; i++) made.push(await create(member.client, `member-org-${i}`))
  expect(made.map((r) => r.status)).toEqual([200, 200, 403, 403, 403])
  expect(made[2]!.body.error).toMatchObject({
    code: 'too_many_organizations',
    message: `You own ${LIMIT} organisations, the most one person may own.`,
  })

  const before = await snapshotTables(app.server.db)
  expect((await create(member.client, 'member-org-again')).status).toBe(403)
  expect(await snapshotTables(app.server.db)).toEqual(before)
})

it('counts each person on their own, and a signed-out call is still 401', async () => {
  // The admin owns only their own workspace: two more are theirs to make.
  expect((await create(team.admin.client, 'admin-org-1')).status).toBe(200)
  expect((await create(team.admin.client, 'admin-org-2')).status).toBe(200)
  expect((await create(team.admin.client, 'admin-org-3')).status).toBe(403)
  expect((await create(app.client(), 'nobody-org')).status).toBe(401)
})

it('still stops at the limit when the creates arrive at the same instant', async () => {
  // The creator owns only their own workspace: two more fit, whatever arrives together.
  const burst = await Promise.all(
    Array.from({ length: 6 }, (_, i) => create(team.creator.client, `creator-burst-${i}`)),
  )
  expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 403, 403, 403, 403])
})
