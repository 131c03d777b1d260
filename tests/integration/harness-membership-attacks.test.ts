/**
 * A member removed from the organisation while their harness run goes on (decision 0476): the
 * run's endpoint let it on until it ended, as it checked the run's token and not the membership, so
 * the removed member's Claude Code kept making model calls on the deployment's key and its hook
 * kept allowing commands. Now the removal cancels the run, killing the command it waits on; and
 * should a membership end by a path that cancels nothing, the endpoint still refuses the run's next
 * step, and audits the refused command. The real CLI, pinned, against the fake model through the
 * run's endpoint.
 */
import { execFileSync } from 'node:child_process'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import type { AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import { cliRequests, harnessJob, startHarnessApp } from '#tests/support/harness-runs.ts'
import { POLL } from '#tests/support/poll.ts'
import { createTeam, type Team } from '#tests/support/team.ts'

const ORG = '/_agent-native/auth/organization'
/** The CLI's time to start and make its first call: a hang guard, not a deadline. */
const CLI = { ...POLL, timeout: 90_000 }

let agent: AgentApp

beforeAll(async () => {
  agent = await startHarnessApp({
    key: 'sk-ant-membership-harness',
    environmentsDir: 'clockwork-harness-member-',
    scheduler: true,
  })
}, 120_000)
afterAll(() => agent?.close())

/** `team`'s member starts their job `name`, a Claude Code run in their environment; returns the run's id. */
async function startMemberRun(team: Team, name: string): Promise<string> {
  const job = await harnessJob(team.member.client, name, `${name}-env`)
  const started = await team.member.client.post(`/_agent-native/jobs/${job.id}/run`)
  expect(started.status, JSON.stringify(started.body)).toBe(202)
  return started.body.run.id as string
}

async function removeMember(team: Team) {
  const removed = await team.owner.client.post(`${ORG}/remove-member`, {
    memberIdOrEmail: team.member.email,
    organizationId: team.orgId,
  })
  expect(removed.status, JSON.stringify(removed.body)).toBe(200)
}

/** The run as its row says, once finished (the removed member may no longer read it). */
const settled = (runId: string) =>
  vi.waitFor(
    async () => {
      const [run] = await queryRows<{ status: string; error: string | null }>(
        agent.app.server.db.db,
        sql`select status, error from job_runs where id = ${runId}`,
      )
      if (!run || ['queued', 'running'].includes(run.status)) throw new Error(`run ${runId} is still going`)
      return run
    },
    { ...CLI },
  )

const commandAudit = (runId: string) =>
  queryRows<{ decision: string; subject: string; reason: string | null }>(
    agent.app.server.db.db,
    sql`select decision, subject, reason from environment_audit where run_id = ${runId} and kind = 'command'`,
  )

/**
 * `team`'s member's membership ends with none of a removal's consequences (their runs go on): a
 * path that bypasses the removal's hooks, or one whose cancel has not reached the run yet.
 */
const membershipEndsUnseen = (team: Team) =>
  queryRows(
    agent.app.server.db.db,
    sql`delete from member where user_id = ${team.member.id} and organization_id = ${team.orgId}`,
  )

describe("a removed member's running harness", () => {
  it('has its next command denied and audited, should the membership end without a removal, and the run ends saying why', async () => {
    const team = await createTeam(agent.app)
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    agent.fake.replyWhen(
      'Task hook-after-removal:',
      // The model's first answer is held while the owner removes the member, then asks for a command.
      async () => {
        await held
        return toolUse('Bash', { command: 'echo still-here > after-removal.txt', description: 'write' })
      },
      { text: 'Done, though removed.' },
    )
    const runId = await startMemberRun(team, 'hook-after-removal')
    await vi.waitFor(() => expect(cliRequests(agent.fake, 'hook-after-removal')).toHaveLength(1), CLI)

    await membershipEndsUnseen(team)
    release()

    const run = await settled(runId)
    expect(run.status).toBe('error')
    expect(run.error).toContain(`${team.member.name} is no longer a member`)
    expect(run.error).toContain('this harness run can act no more')
    // The command never ran: the hook denied it, and the audit says so and why. The model was not asked again.
    expect(await commandAudit(runId)).toEqual([
      {
        decision: 'denied',
        subject: 'echo still-here > after-removal.txt',
        reason: expect.stringContaining(`${team.member.name} is no longer a member`),
      },
    ])
    expect(cliRequests(agent.fake, 'hook-after-removal')).toHaveLength(1)
  }, 150_000)

  it('is cancelled by the removal, which kills the command it waited on', async () => {
    const team = await createTeam(agent.app)
    // A command that never ends by itself, marked so the test can find it.
    const marker = 'tail -f -s 4711 /dev/null'
    agent.fake.replyWhen(
      'Task model-after-removal:',
      toolUse('Bash', { command: `${marker}; echo waited`, description: 'wait', timeout: 600000 }),
      { text: 'Done on the deployment key, though removed.' },
    )
    const runId = await startMemberRun(team, 'model-after-removal')
    const waiting = () =>
      execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
        .split('\n')
        .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
        .filter((found) => found?.[2] === marker)
        .map((found) => Number(found![1]))
    await vi.waitFor(() => expect(waiting()).toHaveLength(1), CLI)

    // Allowed while a member; the owner removes them while it runs, which ends it.
    await removeMember(team)

    await vi.waitFor(() => expect(waiting()).toEqual([]), POLL)
    const run = await settled(runId)
    expect(run).toEqual({ status: 'cancelled', error: 'Cancelled: its person left the organisation' })
    // The call with the command's result never reached the provider.
    expect(cliRequests(agent.fake, 'model-after-removal')).toHaveLength(1)
    expect((await commandAudit(runId)).map((row) => row.decision)).toEqual(['allowed'])
  }, 150_000)
})
