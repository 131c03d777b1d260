/**
 * `GET /runs/:id/files` answers a page, not every file a run changed. A run's commands record up to
 * 500 paths each (4,096 characters each at most), as many commands as the run makes: a member's job
 * that writes 20,000 files made one request read and answer all of them (80 MB of paths at worst).
 * Now at most `limit` (default and most 200) with `nextCursor` saying more exist; every file comes
 * exactly once across the pages, in order of its last change; a path kept whole from before paths
 * were cut is answered cut.
 */
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { MAX_CHANGE_PATH } from '#server/environments/watch/watch.ts'
import { withTeamApp } from '#tests/support/team-app.ts'

const suite = withTeamApp()
const FILES = 20_000
const OLD_LONG_PATH = `old/${'x'.repeat(10_000)}`
let runId: string
const files = (query = '') => suite.team.creator.client.get(`/_agent-native/runs/${runId}/files${query}`)

beforeAll(async () => {
  const { creator, admin, orgId } = suite.team
  // Shared, so the admin sees the run (a personal job's run is a 404 to them: run-files-access).
  const job = await creator.client.post('/_agent-native/jobs', {
    name: 'many-files',
    scope: 'shared',
    schedule: '0 7 * * *',
    instructions: 'Write a file per customer.',
  })
  expect(job.status, JSON.stringify(job.body)).toBe(201)
  const run = await creator.client.post(`/_agent-native/jobs/${job.body.job.id}/run`)
  expect(run.status, JSON.stringify(run.body)).toBe(202)
  runId = run.body.run.id
  const db = suite.app.server.db.db
  await db.execute(sql`insert into environments (id, org_id, scope, created_by, name, instance_id, dir) values
    ('env_mine', ${orgId}, 'personal', ${creator.id}, 'mine', 'here', 'mine'),
    ('env_admins', ${orgId}, 'personal', ${admin.id}, 'admins', 'here', 'admins')`)
  // What the run's commands recorded: one path kept whole from before paths were cut, then 20,000
  // files, and in between 300 in an environment the creator may not see (another's personal one).
  const change = (env: string, actor: string, from: number, to: number) =>
    db.execute(sql`insert into environment_audit (environment_id, org_id, actor_id, run_id, kind, subject, decision, rule)
      select ${env}, ${orgId}, ${actor}, ${runId}, 'change', 'out/file-' || lpad(n::text, 5, '0') || '.txt', 'allowed', 'create'
      from generate_series(${from}::int, ${to}::int) n`)
  await db.execute(sql`insert into environment_audit (environment_id, org_id, actor_id, run_id, kind, subject, decision, rule)
    values ('env_mine', ${orgId}, ${creator.id}, ${runId}, 'change', ${OLD_LONG_PATH}, 'allowed', 'change')`)
  await change('env_mine', creator.id, 1, FILES / 2)
  await change('env_admins', admin.id, 1, 300)
  await change('env_mine', creator.id, FILES / 2 + 1, FILES)
})

describe('a run that changed 20,000 files', () => {
  it('answers at most 200 of them and says more exist', async () => {
    const res = await files()
    expect(res.status).toBe(200)
    expect(res.body.files).toHaveLength(200)
    expect(res.body.nextCursor).toEqual(expect.any(String))
    expect(res.body.files[0]).toEqual({
      environment: 'mine',
      path: `${OLD_LONG_PATH.slice(0, MAX_CHANGE_PATH)}… (10,004 characters in all)`,
      type: 'change',
      timestamp: expect.any(String),
    })
    expect(res.body.files[1]).toMatchObject({
      environment: 'mine',
      path: 'out/file-00001.txt',
      type: 'create',
    })
  })

  it('gives every file it may see exactly once, page by page, and null after the last', async () => {
    const seen: string[] = []
    let cursor: string | null = ''
    let pages = 0
    while (cursor !== null) {
      const res = await files(`?limit=200${cursor ? `&cursor=${cursor}` : ''}`)
      expect(res.status).toBe(200)
      expect(res.body.files.length).toBeLessThanOrEqual(200)
      seen.push(
        ...res.body.files.map((f: { environment: string; path: string }) => `${f.environment}:${f.path}`),
      )
      cursor = res.body.nextCursor
      pages++
    }
    expect(pages).toBe(Math.ceil((FILES + 1) / 200))
    expect(seen).toHaveLength(FILES + 1)
    expect(new Set(seen).size).toBe(FILES + 1)
    expect(seen.some((f) => f.startsWith('admins:'))).toBe(false)
    expect(seen.at(-1)).toBe(`mine:out/file-${FILES}.txt`)
  })

  it('takes a smaller page, and the admin sees only their own environment', async () => {
    const small = await files('?limit=3')
    expect(small.body.files.map((f: { path: string }) => f.path.slice(0, 18))).toEqual([
      'old/xxxxxxxxxxxxxx',
      'out/file-00001.txt',
      'out/file-00002.txt',
    ])
    const next = await files(`?limit=2&cursor=${small.body.nextCursor}`)
    expect(next.body.files.map((f: { path: string }) => f.path)).toEqual([
      'out/file-00003.txt',
      'out/file-00004.txt',
    ])
    const admins = await suite.team.admin.client.get(`/_agent-native/runs/${runId}/files?limit=200`)
    expect(admins.body.files).toHaveLength(200)
    expect(admins.body.files.every((f: { environment: string }) => f.environment === 'admins')).toBe(true)
    const rest = await suite.team.admin.client.get(
      `/_agent-native/runs/${runId}/files?cursor=${admins.body.nextCursor}`,
    )
    expect(rest.body).toMatchObject({ nextCursor: null })
    expect(rest.body.files).toHaveLength(100)
  })

  it('refuses a bad limit, cursor or unknown parameter with a 400 naming each', async () => {
    for (const [query, fields] of [
      ['?limit=0', ['limit']],
      ['?limit=201', ['limit']],
      ['?limit=1e2', ['limit']],
      ['?cursor=abc', ['cursor']],
      ['?limit=x&cursor=-1', ['limit', 'cursor']],
    ] as const) {
      const res = await files(query)
      expect(res.status, query).toBe(400)
      const named = res.body.error.fields?.map((f: { field: string }) => f.field) ?? [res.body.error.field]
      expect(named, query).toEqual(fields)
    }
    const unknown = await files('?offset=5')
    expect(unknown.status).toBe(400)
  })
})
