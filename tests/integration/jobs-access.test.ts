/**
 * The truth table of docs/architecture.md ("Scope and access") over real HTTP: every route × every caller × both job kinds,
 * expected statuses taken from server/access/truth-table.ts. Adding a route is one line in ROUTES.
 */
import { describe, expect, it } from 'vitest'
import {
  CALLER_KINDS,
  JOB_KINDS,
  TRUTH_TABLE,
  expectedStatus,
  type JobKind,
  type TruthRow,
} from '#server/access/truth-table.ts'
import type { ApiClient, ApiResponse } from '#tests/support/api-client.ts'
import { withTeamApp } from '#tests/support/team-app.ts'

/** A job made by the team's "creator" for one cell, with its file path and an edited file text. */
type Fixture = { id: string; name: string; scope: JobKind; version: number; file: string; editedFile: string }

type RouteCase = {
  route: string
  /** Which column of the truth table applies. */
  need: 'view' | 'edit'
  /** Status when allowed. */
  success: number
  send(client: ApiClient, job: Fixture): Promise<ApiResponse>
  /** Maps a response to a status when the route answers 200 either way (lists: 404 = "not in it"). */
  outcome?(res: ApiResponse, job: Fixture): number
}

const J = '/_agent-native/jobs'
const R = '/_agent-native/resources'
const inList = (res: ApiResponse, job: Fixture) =>
  res.status === 200 && res.body.jobs.some((j: { id: string }) => j.id === job.id) ? 200 : 404
const inTree = (res: ApiResponse, job: Fixture) =>
  res.status === 200 && res.body[job.scope].some((e: { jobId?: string }) => e.jobId === job.id) ? 200 : 404

const ROUTES: RouteCase[] = [
  { route: 'GET /jobs', need: 'view', success: 200, send: (c) => c.get(J), outcome: inList },
  {
    route: 'GET /jobs?scope=<kind>&q=<name>',
    need: 'view',
    success: 200,
    send: (c, job) => c.get(`${J}?scope=${job.scope}&q=${job.name}`),
    outcome: inList,
  },
  { route: 'GET /jobs/:id', need: 'view', success: 200, send: (c, job) => c.get(`${J}/${job.id}`) },
  {
    route: 'GET /jobs/:id/audit',
    need: 'view',
    success: 200,
    send: (c, job) => c.get(`${J}/${job.id}/audit`),
  },
  {
    route: 'PATCH /jobs/:id (schedule)',
    need: 'edit',
    success: 200,
    send: (c, job) => c.patch(`${J}/${job.id}`, { schedule: '*/10 * * * *' }),
  },
  {
    route: 'PATCH /jobs/:id (instructions, If-Match)',
    need: 'edit',
    success: 200,
    send: (c, job) =>
      c.patch(`${J}/${job.id}`, { instructions: 'Changed.' }, { 'if-match': `"${job.version}"` }),
  },
  {
    route: 'PATCH /jobs/:id (disable)',
    need: 'edit',
    success: 200,
    send: (c, job) => c.patch(`${J}/${job.id}`, { enabled: false }),
  },
  {
    // Already enabled: a no-op for those allowed, still refused for everyone else.
    route: 'PATCH /jobs/:id (enable)',
    need: 'edit',
    success: 200,
    send: (c, job) => c.patch(`${J}/${job.id}`, { enabled: true }),
  },
  { route: 'DELETE /jobs/:id', need: 'edit', success: 204, send: (c, job) => c.delete(`${J}/${job.id}`) },
  // The list is paged (default 50): one page of 200 holds this suite's whole workspace.
  {
    route: 'GET /resources',
    need: 'view',
    success: 200,
    send: (c) => c.get(`${R}?limit=200`),
    outcome: inTree,
  },
  {
    route: 'GET /resources/<scope>/jobs/<name>.md',
    need: 'view',
    success: 200,
    send: (c, job) => c.get(`${R}/${job.scope}/jobs/${job.name}.md`),
  },
  {
    // With If-Match the PUT means "update this job"; without it, another person's PUT to their own
    // personal/jobs/<name>.md makes a job of their own (jobs-rules.test.ts covers that).
    route: 'PUT /resources/<scope>/jobs/<name>.md (If-Match)',
    need: 'edit',
    success: 200,
    send: (c, job) =>
      c.put(`${R}/${job.scope}/jobs/${job.name}.md`, job.editedFile, { 'if-match': `"${job.version}"` }),
  },
  {
    route: 'DELETE /resources/<scope>/jobs/<name>.md',
    need: 'edit',
    success: 204,
    send: (c, job) => c.delete(`${R}/${job.scope}/jobs/${job.name}.md`),
  },
  {
    route: 'POST /jobs/:id/run',
    need: 'edit',
    success: 202,
    send: (c, job) => c.post(`${J}/${job.id}/run`),
  },
  { route: 'GET /jobs/:id/runs', need: 'view', success: 200, send: (c, job) => c.get(`${J}/${job.id}/runs`) },
]

const suite = withTeamApp()
let counter = 0

async function makeJob(scope: JobKind): Promise<Fixture> {
  const name = `cell-${scope}-${++counter}`
  const client = suite.team.creator.client
  const res = await client.post(J, { name, scope, schedule: '0 7 * * *', instructions: 'Post the numbers.' })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  const file = await client.get(`${R}/${scope}/jobs/${name}.md`)
  expect(file.status).toBe(200)
  const text: string = file.body.resource.content
  return {
    id: res.body.job.id,
    name,
    scope,
    version: 1,
    file: text,
    editedFile: text.replace('Post the numbers.', 'Edited.'),
  }
}

const cells = ROUTES.flatMap((route) => TRUTH_TABLE.map((row) => ({ ...route, row })))

describe('the truth table over HTTP', () => {
  it('covers every caller and job kind', () => {
    expect(new Set(cells.map((c) => c.row.caller))).toEqual(new Set(CALLER_KINDS))
    expect(new Set(cells.map((c) => c.row.job))).toEqual(new Set(JOB_KINDS))
  })

  it.each(cells.map((c) => [`${c.route} · ${c.row.caller} on a ${c.row.job} job`, c] as const))(
    '%s',
    async (_, cell: RouteCase & { row: TruthRow }) => {
      const job = await makeJob(cell.row.job)
      const res = await cell.send(suite.team[cell.row.caller].client, job)
      const status = cell.outcome ? cell.outcome(res, job) : res.status
      const expected = expectedStatus(cell.row, cell.need, cell.success)
      expect(status, `${cell.route} answered ${res.status} ${JSON.stringify(res.body)}`).toBe(expected)
      if (status === 403 || status === 404) {
        expect(res.body?.error?.code ?? 'not_listed').toMatch(/forbidden|not_found|not_listed/)
      }
      if (cell.need === 'edit' && status !== cell.success) {
        // A refused write changed nothing.
        const after = await suite.team.creator.client.get(`${J}/${job.id}`)
        expect(after.status).toBe(200)
        expect(after.body.job).toMatchObject({ version: job.version, schedule: '0 7 * * *', enabled: true })
      }
    },
  )
})
