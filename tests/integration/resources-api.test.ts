/**
 * The workspace API: the tree, plain files in personal and shared scope, versions, formats, and
 * who may write what (shared files: every member; personal files: their owner only).
 */
import { describe, expect, it } from 'vitest'
import { withTeamApp } from '#tests/support/team-app.ts'

const R = '/_agent-native/resources'
const J = '/_agent-native/jobs'

const suite = withTeamApp()

describe('plain files', () => {
  it('PUT creates (201), replaces (200, new version), and a same-content PUT changes nothing', async () => {
    const c = suite.team.member.client
    const created = await c.put(`${R}/personal/notes/ideas.md`, '# Ideas\n')
    expect(created.status).toBe(201)
    expect(created.headers.get('etag')).toBe('"1"')
    expect(created.body.resource).toMatchObject({
      path: 'notes/ideas.md',
      scope: 'personal',
      content: '# Ideas\n',
      version: 1,
      canEdit: true,
      contentType: 'text/markdown',
    })
    const replaced = await c.put(`${R}/personal/notes/ideas.md`, '# Ideas\n- more\n', { 'if-match': '"1"' })
    expect(replaced.status).toBe(200)
    expect(replaced.body.resource.version).toBe(2)
    const same = await c.put(`${R}/personal/notes/ideas.md`, '# Ideas\n- more\n')
    expect(same.body.resource.version).toBe(2)
    const stale = await c.put(`${R}/personal/notes/ideas.md`, 'x', { 'if-match': '"1"' })
    expect(stale.status).toBe(409)
  })

  it('GET answers JSON { resource } by default and the raw text for Accept: text/*', async () => {
    const c = suite.team.member.client
    await c.put(`${R}/personal/data/report.csv`, 'a,b\n1,2\n')
    const asJson = await c.get(`${R}/personal/data/report.csv`)
    expect(asJson.status).toBe(200)
    expect(asJson.body.resource).toMatchObject({ content: 'a,b\n1,2\n', contentType: 'text/csv', version: 1 })
    const raw = await c.request('GET', `${R}/personal/data/report.csv`, undefined, { accept: 'text/plain' })
    expect(raw.body).toBe('a,b\n1,2\n')
    expect(raw.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff')
    expect(raw.headers.get('etag')).toBe('"1"')
  })

  it('HTML is never served as HTML', async () => {
    const c = suite.team.member.client
    await c.put(`${R}/personal/page.html`, '<script>alert(1)</script>')
    const raw = await c.request('GET', `${R}/personal/page.html`, undefined, { accept: 'text/html' })
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  })

  it('DELETE removes a file (204), then it is a 404', async () => {
    const c = suite.team.member.client
    await c.put(`${R}/personal/tmp.txt`, 'bye')
    expect((await c.delete(`${R}/personal/tmp.txt`)).status).toBe(204)
    expect((await c.get(`${R}/personal/tmp.txt`)).status).toBe(404)
  })
})

describe('who may read and write', () => {
  it("personal files are their owner's alone: the same path means each person's own file", async () => {
    await suite.team.creator.client.put(`${R}/personal/diary.md`, 'secret')
    for (const who of ['owner', 'admin', 'member', 'outsider'] as const) {
      expect((await suite.team[who].client.get(`${R}/personal/diary.md`)).status).toBe(404)
      expect((await suite.team[who].client.delete(`${R}/personal/diary.md`)).status).toBe(404)
    }
    expect((await suite.team.creator.client.get(`${R}/personal/diary.md`)).body.resource.content).toBe(
      'secret',
    )
  })

  it('shared files: every member reads and writes them; other organisations see nothing', async () => {
    const put = await suite.team.member.client.put(`${R}/shared/team/handbook.md`, 'v1')
    expect(put.status).toBe(201)
    expect((await suite.team.owner.client.get(`${R}/shared/team/handbook.md`)).body.resource.content).toBe(
      'v1',
    )
    const edit = await suite.team.creator.client.put(`${R}/shared/team/handbook.md`, 'v2', {
      'if-match': '"1"',
    })
    expect(edit.status).toBe(200)
    expect((await suite.team.admin.client.get(`${R}/shared/team/handbook.md`)).body.resource).toMatchObject({
      content: 'v2',
      version: 2,
      canEdit: true,
    })
    expect((await suite.team.outsider.client.get(`${R}/shared/team/handbook.md`)).status).toBe(404)
    expect((await suite.team.outsider.client.delete(`${R}/shared/team/handbook.md`)).status).toBe(404)
    // The outsider's own shared folder is their organisation's, apart from ours.
    expect((await suite.team.outsider.client.put(`${R}/shared/team/handbook.md`, 'theirs')).status).toBe(201)
    expect((await suite.team.member.client.get(`${R}/shared/team/handbook.md`)).body.resource.content).toBe(
      'v2',
    )
  })
})

describe('the tree', () => {
  it('lists personal and shared files and job files, filtered by prefix, only what the caller may see', async () => {
    const c = suite.team.admin.client
    await c.put(`${R}/personal/tree/a.md`, 'a')
    await c.put(`${R}/shared/tree/b.md`, 'bb')
    // Multi-byte and multi-line: the tree counts the instructions' bytes in Postgres, not as rendered.
    await c.post(J, {
      name: 'tree-job',
      scope: 'shared',
      schedule: '0 7 * * *',
      instructions: 'Grüße aus 東京 — go.\n\nThen ✓ stop.',
    })
    await c.post(J, { name: 'tree-mine', scope: 'personal', schedule: '0 7 * * *', instructions: 'Go.' })
    await suite.team.creator.client.post(J, {
      name: 'tree-hidden',
      scope: 'personal',
      schedule: '0 7 * * *',
      instructions: 'x',
    })

    const tree = await c.get(`${R}?prefix=tree/`)
    expect(tree.status).toBe(200)
    expect(tree.body.personal).toEqual([
      { path: 'tree/a.md', kind: 'file', size: 1, updatedAt: expect.any(String), canEdit: true },
    ])
    expect(tree.body.shared).toEqual([
      { path: 'tree/b.md', kind: 'file', size: 2, updatedAt: expect.any(String), canEdit: true },
    ])

    const jobs = await c.get(`${R}?prefix=jobs/tree-`)
    expect(jobs.body.personal.map((e: { path: string }) => e.path)).toEqual(['jobs/tree-mine.md'])
    expect(jobs.body.shared).toEqual([
      {
        path: 'jobs/tree-job.md',
        kind: 'job',
        size: expect.any(Number),
        updatedAt: expect.any(String),
        jobId: expect.stringMatching(/^job_/),
        canEdit: true,
      },
    ])
    const file = await c.get(`${R}/shared/jobs/tree-job.md`)
    expect(jobs.body.shared[0].size).toBe(Buffer.byteLength(file.body.resource.content))
    expect(file.body.resource.jobId).toBe(jobs.body.shared[0].jobId)

    const all = await c.get(R)
    expect(all.body.personal.map((e: { path: string }) => e.path)).not.toContain('jobs/tree-hidden.md')
    expect(all.body.shared.map((e: { path: string }) => e.path)).not.toContain('jobs/tree-hidden.md')
  })

  it('needs a session', async () => {
    expect((await suite.app.client().get(R)).status).toBe(401)
    expect((await suite.app.client().get(`${R}/shared/x.md`)).status).toBe(401)
    expect((await suite.app.client().put(`${R}/shared/x.md`, 'x')).status).toBe(401)
  })
})
