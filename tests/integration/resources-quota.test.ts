/**
 * Nothing limited how many workspace files a member wrote, and the workspace tree reads the summary
 * of every personal and shared file on each request: enough of them exhausts the server's memory
 * for everyone. Now an organisation stores at most ORG_MAX_WORKSPACE_FILES files, both scopes
 * together, and new files at once take turns so none slips past the count (decision 0453).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { snapshotTables } from '#tests/support/snapshot.ts'
import { createTeam, type Team } from '#tests/support/team.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const R = '/_agent-native/resources'
const LIMIT = 3

let app: TestApp
let team: Team

beforeAll(async () => {
  app = await startTestApp({ env: { ORG_MAX_WORKSPACE_FILES: String(LIMIT) } })
  team = await createTeam(app)
})
afterAll(() => app?.close())

const refusal = {
  error: {
    code: 'quota_exceeded',
    message: expect.stringMatching(/already has 3 workspace files.*ORG_MAX_WORKSPACE_FILES/),
  },
}
const jobFile = '---\nschedule: "0 7 * * *"\nenabled: false\n---\n\nSay hello.\n'

describe('workspace files per organisation, personal and shared together', () => {
  it('takes files up to the limit, then refuses the next new one in either scope, writing nothing', async () => {
    const member = team.member.client
    for (const path of ['personal/a.md', 'shared/b.md', 'personal/c.md']) {
      const res = await member.put(`${R}/${path}`, `# ${path}\n`)
      expect(res.status, JSON.stringify(res.body)).toBe(201)
    }

    const before = await snapshotTables(app.server.db)
    const personal = await member.put(`${R}/personal/d.md`, '# d\n')
    expect(personal.status).toBe(403)
    expect(personal.body).toMatchObject(refusal)
    // Another member's files count too: the limit is the organisation's, not the person's.
    const shared = await team.admin.client.put(`${R}/shared/e.md`, '# e\n')
    expect(shared.status).toBe(403)
    expect(shared.body).toMatchObject(refusal)
    const othersPersonal = await team.admin.client.put(`${R}/personal/f.md`, '# f\n')
    expect(othersPersonal.status).toBe(403)
    expect(await snapshotTables(app.server.db)).toEqual(before)
  })

  it('still lets an existing file be overwritten, and a job file (a job, counted apart) be written', async () => {
    const member = team.member.client
    const overwritten = await member.put(`${R}/shared/b.md`, '# b, again\n')
    expect(overwritten.status, JSON.stringify(overwritten.body)).toBe(200)
    expect(overwritten.body.resource.version).toBe(2)
    const job = await member.put(`${R}/personal/jobs/hello.md`, jobFile)
    expect(job.status, JSON.stringify(job.body)).toBe(201)
  })

  it('lets exactly one of many new files at once take the one free place', async () => {
    expect((await team.member.client.delete(`${R}/personal/a.md`)).status).toBe(204)
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        team.member.client.put(`${R}/${i % 2 ? 'shared' : 'personal'}/race-${i}.md`, `# ${i}\n`),
      ),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([201, 403, 403, 403, 403, 403, 403, 403])
    const tree = await team.member.client.get(R)
    const files = [...tree.body.personal, ...tree.body.shared].filter(
      (e: { kind: string }) => e.kind === 'file',
    )
    expect(files).toHaveLength(LIMIT)
  })

  it('counts each organisation apart', async () => {
    expect((await team.outsider.client.put(`${R}/personal/elsewhere.md`, '# mine\n')).status).toBe(201)
  })
})
