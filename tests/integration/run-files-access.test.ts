/**
 * Attack: `GET /runs/:id/files` checked only that the caller may see each environment, not the run.
 * With the id of a run of someone else's personal job (which `GET /runs/:id` answers 404), an admin
 * or any member read the paths that run changed in a shared environment: what a personal job does
 * is its creator's alone (docs/architecture.md, scope and access). Safe outcome: the same 404 as
 * the run itself, for every member but the job's creator.
 */
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { pausedJob } from '#tests/support/runs.ts'
import { withTeamApp } from '#tests/support/team-app.ts'

const suite = withTeamApp()
let runId: string

beforeAll(async () => {
  const { creator, orgId } = suite.team
  const jobId = await pausedJob(creator.client, 'private-books', { scope: 'personal' })
  const run = await creator.client.post(`/_agent-native/jobs/${jobId}/run`)
  expect(run.status, JSON.stringify(run.body)).toBe(202)
  runId = run.body.run.id
  // What the run's command recorded in an environment every member sees.
  const db = suite.app.server.db.db
  await db.execute(sql`insert into environments (id, org_id, scope, created_by, name, instance_id, dir)
    values ('env_team', ${orgId}, 'shared', ${creator.id}, 'team', 'here', 'team')`)
  await db.execute(sql`insert into environment_audit (environment_id, org_id, actor_id, run_id, kind, subject, decision, rule)
    values ('env_team', ${orgId}, ${creator.id}, ${runId}, 'change', 'notes/salary-review.md', 'allowed', 'create')`)
})

describe("the files of a run of someone else's personal job", () => {
  it.each(['admin', 'owner', 'member'] as const)('are a 404 for the %s, as the run is', async (who) => {
    const client = suite.team[who].client
    expect((await client.get(`/_agent-native/runs/${runId}`)).status).toBe(404)
    const files = await client.get(`/_agent-native/runs/${runId}/files`)
    expect(files.status, JSON.stringify(files.body)).toBe(404)
    expect(files.body.error.message).toBe(`No run with id ${runId}`)
  })

  it('are listed for the job’s creator', async () => {
    const files = await suite.team.creator.client.get(`/_agent-native/runs/${runId}/files`)
    expect(files.status, JSON.stringify(files.body)).toBe(200)
    expect(files.body.files).toEqual([
      { environment: 'team', path: 'notes/salary-review.md', type: 'create', timestamp: expect.any(String) },
    ])
  })
})
