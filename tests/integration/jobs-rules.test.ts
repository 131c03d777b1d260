/**
 * No path around the rules: the job file and the resources API cannot create a job as someone
 * else, edit another member's shared job, spend the org key, or leak a personal job.
 */
import { describe, expect, it } from 'vitest'
import { snapshotTables } from '#tests/support/snapshot.ts'
import type { Team } from '#tests/support/team.ts'
import { withTeamApp } from '#tests/support/team-app.ts'

const J = '/_agent-native/jobs'
const R = '/_agent-native/resources'

const suite = withTeamApp()

const file = (frontmatter: string, body = 'Post the numbers.') => `---\n${frontmatter}\n---\n${body}\n`

async function create(who: keyof Omit<Team, 'orgId' | 'outsiderOrgId'>, body: Record<string, unknown>) {
  const res = await suite.team[who].client.post(J, { schedule: '0 7 * * *', instructions: 'Go.', ...body })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.job
}

describe('identity comes from the session', () => {
  it('rejects a new job file that names someone else as createdBy, or another org', async () => {
    const before = await snapshotTables()
    const asAdmin = await suite.team.member.client.put(
      `${R}/shared/jobs/forged.md`,
      file(`schedule: "0 7 * * *"\ncreatedBy: ${suite.team.admin.email}`),
    )
    expect(asAdmin.status).toBe(400)
    expect(asAdmin.body.error.field).toBe('createdBy')
    const otherOrg = await suite.team.member.client.put(
      `${R}/shared/jobs/forged.md`,
      file(`schedule: "0 7 * * *"\norgId: ${suite.team.outsiderOrgId}`),
    )
    expect(otherOrg.status).toBe(400)
    expect(otherOrg.body.error.field).toBe('orgId')
    expect(await snapshotTables()).toEqual(before)
  })

  it('accepts the caller as createdBy and sets it from the session when absent', async () => {
    const own = await suite.team.member.client.put(
      `${R}/personal/jobs/own-file.md`,
      file(`schedule: "0 7 * * *"\ncreatedBy: ${suite.team.member.email.toUpperCase()}`),
    )
    expect(own.status).toBe(201)
    expect(own.body.job.createdBy).toEqual({
      id: suite.team.member.id,
      email: suite.team.member.email,
      name: suite.team.member.name,
    })
    expect(own.body.job.orgId).toBe(suite.team.orgId)
  })

  it('rejects createdBy and orgId in the JSON API as unknown fields', async () => {
    for (const key of ['createdBy', 'orgId']) {
      const res = await suite.team.member.client.post(J, {
        name: `forged-${key.toLowerCase()}`,
        schedule: '0 7 * * *',
        instructions: 'Go.',
        [key]: suite.team.admin.id,
      })
      expect(res.status).toBe(400)
      expect(res.body.error.field).toBe(key)
    }
  })

  it("rejects a file over an existing job that names someone other than the job's creator", async () => {
    const job = await create('creator', { name: 'claimed', scope: 'shared' })
    const res = await suite.team.admin.client.put(
      `${R}/shared/jobs/${job.name}.md`,
      file(`schedule: "0 7 * * *"\ncreatedBy: ${suite.team.admin.email}`),
    )
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('createdBy')
  })
})

describe("another member's shared job", () => {
  it("a member PUTting over an admin's shared job file gets 403 and changes nothing", async () => {
    const job = await create('admin', { name: 'admins-report', scope: 'shared' })
    const text = (await suite.team.member.client.get(`${R}/shared/jobs/${job.name}.md`)).body.resource.content
    const before = await snapshotTables()
    const res = await suite.team.member.client.put(
      `${R}/shared/jobs/${job.name}.md`,
      text.replace('Go.', 'Mine now.'),
    )
    expect(res.status).toBe(403)
    // Even a broken file is refused for access first: the member learns nothing from parse errors.
    const broken = await suite.team.member.client.put(`${R}/shared/jobs/${job.name}.md`, 'not a job file')
    expect(broken.status).toBe(403)
    const del = await suite.team.member.client.delete(`${R}/shared/jobs/${job.name}.md`)
    expect(del.status).toBe(403)
    expect(await snapshotTables()).toEqual(before)
  })

  it('the resource tree marks it read-only for the member', async () => {
    const tree = await suite.team.member.client.get(`${R}?prefix=jobs/admins-`)
    expect(tree.body.shared).toEqual([
      expect.objectContaining({ path: 'jobs/admins-report.md', canEdit: false }),
    ])
  })
})

describe('personal jobs stay personal', () => {
  it("another user's personal job is a 404 through the resources API", async () => {
    const job = await create('creator', { name: 'private-notes', scope: 'personal' })
    const before = await snapshotTables()
    for (const who of ['owner', 'admin', 'member', 'outsider'] as const) {
      const client = suite.team[who].client
      expect((await client.get(`${R}/personal/jobs/${job.name}.md`)).status).toBe(404)
      expect((await client.delete(`${R}/personal/jobs/${job.name}.md`)).status).toBe(404)
      const put = await client.put(`${R}/personal/jobs/${job.name}.md`, file('schedule: "* * * * *"'), {
        'if-match': '"1"',
      })
      expect(put.status).toBe(404)
      expect((await client.get(`${R}/shared/jobs/${job.name}.md`)).status).toBe(404)
      expect((await client.get(`${J}/${job.id}`)).status).toBe(404)
    }
    expect(await snapshotTables()).toEqual(before)
  })

  it("a PUT without If-Match makes the caller's own job and leaves the other one alone", async () => {
    const theirs = await create('creator', { name: 'same-name', scope: 'personal' })
    const res = await suite.team.admin.client.put(
      `${R}/personal/jobs/same-name.md`,
      file('schedule: "* * * * *"', 'Mine.'),
    )
    expect(res.status).toBe(201)
    expect(res.body.job.id).not.toBe(theirs.id)
    expect(res.body.job.createdBy.id).toBe(suite.team.admin.id)
    const still = await suite.team.creator.client.get(`${J}/${theirs.id}`)
    expect(still.body.job).toMatchObject({ version: 1, instructions: 'Go.', schedule: '0 7 * * *' })
  })

  it("listing never shows another person's personal job, through either API", async () => {
    await create('creator', { name: 'hidden-one', scope: 'personal' })
    for (const who of ['owner', 'admin', 'member', 'outsider'] as const) {
      const client = suite.team[who].client
      const tree = await client.get(R)
      const paths = [...tree.body.personal, ...tree.body.shared].map((e: { path: string }) => e.path)
      expect(paths).not.toContain('jobs/hidden-one.md')
      const list = await client.get(`${J}?q=hidden`)
      expect(list.body.jobs).toEqual([])
    }
    const mine = await suite.team.creator.client.get(`${R}?prefix=jobs/hidden`)
    expect(mine.body.personal.map((e: { path: string }) => e.path)).toEqual(['jobs/hidden-one.md'])
  })
})

describe("runAs: shared spends the organisation's key", () => {
  it('a member may not set it: 403 on create, update and job file; nothing written', async () => {
    const job = await create('member', { name: 'members-job', scope: 'shared' })
    const before = await snapshotTables()
    const post = await suite.team.member.client.post(J, {
      name: 'wants-key',
      scope: 'shared',
      schedule: '0 7 * * *',
      instructions: 'Go.',
      runAs: 'shared',
    })
    expect(post.status).toBe(403)
    expect(post.body.error.field).toBe('runAs')
    const patch = await suite.team.member.client.patch(`${J}/${job.id}`, { runAs: 'shared' })
    expect(patch.status).toBe(403)
    expect(patch.body.error.field).toBe('runAs')
    const put = await suite.team.member.client.put(
      `${R}/shared/jobs/${job.name}.md`,
      file('schedule: "0 7 * * *"\nrunAs: shared', 'Go.'),
    )
    expect(put.status).toBe(403)
    expect(put.body.error.field).toBe('runAs')
    expect(await snapshotTables()).toEqual(before)
  })

  it('is a 400 on a personal job, even for an owner', async () => {
    const res = await suite.team.owner.client.post(J, {
      name: 'personal-key',
      scope: 'personal',
      schedule: '0 7 * * *',
      instructions: 'Go.',
      runAs: 'shared',
    })
    expect(res.status).toBe(400)
    expect(res.body.error.field).toBe('runAs')
  })

  it('an admin may set it; the member creator may then pause it but not change what it runs', async () => {
    const job = await create('member', { name: 'keyed', scope: 'shared' })
    const set = await suite.team.admin.client.patch(`${J}/${job.id}`, { runAs: 'shared' })
    expect(set.status).toBe(200)
    expect(set.body.job).toMatchObject({ runAs: 'shared', createdBy: { id: suite.team.member.id } })
    const edit = await suite.team.member.client.patch(`${J}/${job.id}`, { schedule: '* * * * *' })
    expect(edit.status).toBe(403)
    expect(edit.body.error.field).toBe('runAs')
    const pause = await suite.team.member.client.patch(`${J}/${job.id}`, { enabled: false })
    expect(pause.status).toBe(200)
  })
})

describe('other organisations', () => {
  it('an outsider gets 404 for every job route of another org, even knowing the id', async () => {
    const job = await create('owner', { name: 'org-a-job', scope: 'shared' })
    const c = suite.team.outsider.client
    expect((await c.get(`${J}/${job.id}`)).status).toBe(404)
    expect((await c.get(`${J}/${job.id}/audit`)).status).toBe(404)
    expect((await c.patch(`${J}/${job.id}`, { enabled: false })).status).toBe(404)
    expect((await c.delete(`${J}/${job.id}`)).status).toBe(404)
  })
})
