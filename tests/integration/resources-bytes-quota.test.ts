/**
 * An organisation's workspace files were bounded in number only, each up to a mebibyte: five
 * thousand of them let one member of an organisation they made themselves store 5 GiB in the
 * database every tenant shares, and twenty organisations a person may own made it 100 GiB. Now the
 * files hold at most ORG_MAX_WORKSPACE_MB together, both scopes, counted on every write that makes
 * a file or lengthens one (decision 0499). Attacked with a limit of 1 MiB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const R = '/_agent-native/resources'
const KiB = 1024

let app: TestApp
let team: Team

beforeAll(async () => {
  app = await startTestApp({ env: { ORG_MAX_WORKSPACE_MB: '1' } })
  team = await createTeam(app)
})
afterAll(() => app?.close())

const text = (bytes: number) => `${'x'.repeat(bytes - 1)}\n`
const refusal = {
  error: {
    code: 'quota_exceeded',
    message: expect.stringMatching(/workspace files hold .* of 1\.0 MiB.*ORG_MAX_WORKSPACE_MB/),
  },
}

describe("an organisation's workspace files hold at most ORG_MAX_WORKSPACE_MB together", () => {
  it('takes files up to the total, then refuses a new one in either scope and by anyone, writing nothing', async () => {
    const member = team.member.client
    expect((await member.put(`${R}/personal/notes-1.md`, text(400 * KiB))).status).toBe(201)
    expect((await member.put(`${R}/shared/notes-2.md`, text(400 * KiB))).status).toBe(201)

    const before = await snapshotTables(app.server.db)
    const third = await member.put(`${R}/personal/notes-3.md`, text(400 * KiB))
    expect(third.status).toBe(403)
    expect(third.body).toMatchObject(refusal)
    // Another member's writes count against the same total.
    const others = await team.admin.client.put(`${R}/personal/mine.md`, text(300 * KiB))
    expect(others.status).toBe(403)
    expect(others.body).toMatchObject(refusal)
    expect(await snapshotTables(app.server.db)).toEqual(before)
    // What still fits is taken.
    expect((await team.admin.client.put(`${R}/personal/small.md`, text(100 * KiB))).status).toBe(201)
  })

  it('refuses lengthening a file past the total, and lets a file be shortened or rewritten at its length', async () => {
    const member = team.member.client
    const before = await snapshotTables(app.server.db)
    // 900 KiB held: growing a 400 KiB file to 600 KiB would hold 1.1 MiB.
    const longer = await member.put(`${R}/shared/notes-2.md`, text(600 * KiB))
    expect(longer.status).toBe(403)
    expect(longer.body).toMatchObject(refusal)
    expect(await snapshotTables(app.server.db)).toEqual(before)
    const same = await member.put(`${R}/shared/notes-2.md`, text(400 * KiB).replace('x', 'y'))
    expect(same.status, JSON.stringify(same.body)).toBe(200)
    const shorter = await member.put(`${R}/shared/notes-2.md`, '# notes\n')
    expect(shorter.status, JSON.stringify(shorter.body)).toBe(200)
  })

  it('lets new files sent at once take only the room there is', async () => {
    // About 500 KiB free now; six files of 200 KiB at once would hold 1.6 MiB if each counted alone.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        team.member.client.put(`${R}/${i % 2 ? 'shared' : 'personal'}/race-${i}.md`, text(200 * KiB)),
      ),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 403, 403, 403, 403])
    const usage = await team.owner.client.get('/_agent-native/usage')
    expect(usage.status).toBe(200)
    expect(usage.body.usage.workspaceStorage.limit).toBe(1024 * KiB)
    expect(usage.body.usage.workspaceStorage.used).toBeLessThanOrEqual(1024 * KiB)
    expect(usage.body.usage.workspaceFiles).toEqual({ used: 5, limit: 5000 })
  })

  it('counts each organisation apart', async () => {
    expect((await team.outsider.client.put(`${R}/personal/elsewhere.md`, text(900 * KiB))).status).toBe(201)
  })
})
