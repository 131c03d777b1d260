/**
 * The truth table of docs/architecture.md ("Scope and access") through the MCP server: every job
 * and run tool, and a job file as a resource, × every caller (each with a token of all four scopes)
 * × both job kinds, expected outcomes taken from server/access/truth-table.ts as jobs-access.test.ts
 * takes them for the HTTP routes. A token acts as its owner, nothing more.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  CALLER_KINDS,
  TRUTH_TABLE,
  expectedStatus,
  type CallerKind,
  type JobKind,
  type TruthRow,
} from '#server/access/truth-table.ts'
import { postMcp } from '#tests/support/mcp-client.ts'
import { withTeamApp } from '#tests/support/team-app.ts'

type Fixture = { id: string; name: string; scope: JobKind }
type Answer = { result?: any; error?: { code: number; message: string } }

type ToolCase = {
  tool: string
  need: 'view' | 'edit'
  /** The MCP request for one job. */
  request(job: Fixture): { method: string; params: Record<string, unknown> }
  /** The answer as an HTTP-like status: 200 allowed, else the refusal's status. */
  outcome?(answer: Answer, job: Fixture): number
}

const call = (name: string, args: (job: Fixture) => Record<string, unknown>) => (job: Fixture) => ({
  method: 'tools/call',
  params: { name, arguments: args(job) },
})

/** A tool's answer: 200 when it did it, else the status of its `{ ok: false, error }`. */
function toolStatus(answer: Answer): number {
  const body = JSON.parse(answer.result.content[0].text)
  return answer.result.isError ? body.error.status : 200
}

const TOOLS: ToolCase[] = [
  {
    tool: 'list_jobs',
    need: 'view',
    request: call('list_jobs', (job) => ({ query: job.name })),
    outcome: (answer, job) =>
      JSON.parse(answer.result.content[0].text).jobs.some((j: { id: string }) => j.id === job.id) ? 200 : 404,
  },
  { tool: 'get_job (id)', need: 'view', request: call('get_job', (job) => ({ id: job.id })) },
  {
    tool: 'get_job (name, scope)',
    need: 'view',
    request: call('get_job', (job) => ({ name: job.name, scope: job.scope })),
  },
  { tool: 'list_runs', need: 'view', request: call('list_runs', (job) => ({ jobId: job.id })) },
  {
    tool: 'resources/read',
    need: 'view',
    request: (job) => ({
      method: 'resources/read',
      params: { uri: `clockwork://jobs/${job.scope === 'shared' ? 'shared/' : ''}${job.name}` },
    }),
    outcome: (answer) => (answer.result ? 200 : answer.error?.code === -32002 ? 404 : 500),
  },
  {
    tool: 'update_job',
    need: 'edit',
    request: call('update_job', (job) => ({ id: job.id, schedule: '*/10 * * * *' })),
  },
  { tool: 'pause_job', need: 'edit', request: call('pause_job', (job) => ({ id: job.id })) },
  // Already running: a no-op for those allowed, still refused for everyone else.
  { tool: 'resume_job', need: 'edit', request: call('resume_job', (job) => ({ id: job.id })) },
  {
    tool: 'delete_job (confirm)',
    need: 'edit',
    request: call('delete_job', (job) => ({ id: job.id, confirm: true })),
  },
  { tool: 'run_job', need: 'edit', request: call('run_job', (job) => ({ jobId: job.id })) },
]

const suite = withTeamApp()
const tokens = {} as Record<CallerKind, string>
beforeAll(async () => {
  for (const kind of CALLER_KINDS) {
    const res = await suite.team[kind].client.post('/_agent-native/access-tokens', {
      name: `${kind}'s agent`,
      scopes: ['jobs:read', 'jobs:write', 'runs:read', 'runs:write'],
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    tokens[kind] = res.body.token
  }
})

async function rpc(token: string, message: { method: string; params: Record<string, unknown> }) {
  const answer = await postMcp(
    suite.app.baseUrl,
    token,
    JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
  )
  expect(answer.status, answer.text).toBe(200)
  return JSON.parse(answer.text) as Answer
}

let counter = 0
async function makeJob(scope: JobKind): Promise<Fixture> {
  const name = `mcp-cell-${scope}-${++counter}`
  const res = await suite.team.creator.client.post('/_agent-native/jobs', {
    name,
    scope,
    schedule: '0 7 * * *',
    instructions: 'Post the numbers.',
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return { id: res.body.job.id, name, scope }
}

const cells = TOOLS.flatMap((tool) => TRUTH_TABLE.map((row) => ({ ...tool, row })))

describe('the truth table through the MCP server', () => {
  it.each(cells.map((c) => [`${c.tool} · ${c.row.caller} on a ${c.row.job} job`, c] as const))(
    '%s',
    async (_, cell: ToolCase & { row: TruthRow }) => {
      const job = await makeJob(cell.row.job)
      const answer = await rpc(tokens[cell.row.caller], cell.request(job))
      const status = (cell.outcome ?? toolStatus)(answer, job)
      expect(status, JSON.stringify(answer)).toBe(expectedStatus(cell.row, cell.need, 200))
      if (status !== 200 && cell.need === 'edit') {
        // A refused write changed nothing, and started no run.
        const creator = suite.team.creator.client
        const after = await creator.get(`/_agent-native/jobs/${job.id}`)
        expect(after.body.job).toMatchObject({ version: 1, schedule: '0 7 * * *', enabled: true })
        expect((await creator.get(`/_agent-native/jobs/${job.id}/runs`)).body.runs).toEqual([])
      }
    },
  )
})
