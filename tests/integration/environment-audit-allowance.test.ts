/**
 * Every command, file write and harness tool call in an environment is recorded in its audit, kept
 * for AUDIT_HISTORY_DAYS: a command's line up to 64 KiB, and each file it changed. A member's loop
 * of direct commands costs no model call, so nothing bounded how fast one person filled the
 * database every tenant shares; a job's changes are recorded too. Now each person's actions may
 * add USER_MAX_AUDIT_MB_PER_DAY a day (decision 0500). Attacked with 1 MiB: a loop of commands of
 * 15 KiB lines, a loop of job edits, and a harness run of someone whose allowance is spent.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import type { AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import { bashParts, localHarnessJob, runWithReplies, startHarnessApp } from '#tests/support/harness-runs.ts'

const E = '/_agent-native/environments'
const R = '/_agent-native/resources'
const MiB = 1024 * 1024

let agent: AgentApp
beforeAll(async () => {
  agent = await startHarnessApp({
    key: 'sk-ant-audit-allowance-0500',
    environmentsDir: 'clockwork-audit-allowance-',
    scheduler: true,
    env: { USER_MAX_AUDIT_MB_PER_DAY: '1' },
  })
}, 120_000)
afterAll(() => agent?.close())

const auditedBytes = async (actorId: string) =>
  Number(
    (
      await queryRows<{ bytes: string }>(
        agent.app.server.db.db,
        sql`select coalesce(sum(octet_length(subject)), 0) as bytes from environment_audit where actor_id = ${actorId}`,
      )
    )[0]!.bytes,
  )

describe("a person's actions add at most USER_MAX_AUDIT_MB_PER_DAY to the audit trails a day", () => {
  it('a loop of long direct commands is refused once it filled the day, and others still act', async () => {
    const { client, id } = agent.team.member
    const put = await client.put(`${R}/personal/environments/loud.md`, '---\nprovider: local\n---\n')
    expect(put.status, JSON.stringify(put.body)).toBe(201)
    // A line longer than the command box takes is a 400 that says so (and runs nothing).
    const tooLong = await client.post(`${E}/loud/commands`, { command: `true # ${'a'.repeat(16_384)}` })
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.error).toMatchObject({
      field: 'command',
      message: 'command: must be at most 16,384 characters',
    })
    // The day so far: all but the last 120 KiB spent (seventy commands' worth would take as long to
    // run here as the rest of the file), so the loop below fills the rest with real commands.
    const earlier = MiB - 120 * 1024
    await agent.app.server.db.db.execute(sql`
      insert into audit_volume (actor_id, day, bytes)
      values (${id}, (now() at time zone 'utc')::date, ${earlier})`)
    // 15 KiB a line: a hundred of them are 1.5 MiB of audit, had nothing stopped the loop.
    const line = `true # ${'a'.repeat(15 * 1024)}`
    const statuses: number[] = []
    let refusal: { code: string; message: string } | undefined
    for (let i = 0; i < 100 && !refusal; i++) {
      const res = await client.post(`${E}/loud/commands`, { command: line })
      statuses.push(res.status)
      if (res.status !== 200) refusal = res.body.error
    }
    expect(statuses.at(-1), JSON.stringify(refusal)).toBe(429)
    expect(refusal).toMatchObject({
      code: 'quota_exceeded',
      message: expect.stringMatching(/the most one person's may be \(USER_MAX_AUDIT_MB_PER_DAY, 1\.0 MiB\)/),
    })
    // Refused once a mebibyte was recorded (with each row's overhead): at most one line past it.
    const recorded = await auditedBytes(id)
    expect(statuses.length).toBeLessThanOrEqual(10)
    expect(earlier + recorded).toBeGreaterThanOrEqual(MiB - 20 * 1024)
    expect(earlier + recorded).toBeLessThan(MiB + 20 * 1024)
    // The agent's file write for them is refused too, before it writes.
    agent.fake.reply(toolUse('write_file', { environment: 'loud', path: 'notes.md', content: 'a note' }))
    const chat = await sendChat(client, { message: userText('write a note in loud') })
    expect(toolParts(chat.reply, 'write_file')[0].output).toMatchObject({
      ok: false,
      error: { status: 429, message: expect.stringMatching(/USER_MAX_AUDIT_MB_PER_DAY/) },
    })
    expect((await client.post(`${E}/loud/commands`, { command: 'ls notes.md' })).status).toBe(429)
    expect(await auditedBytes(id)).toBe(recorded)
    // A new environment's setup steps are recorded as commands: none runs, whatever opens it.
    const built = await client.put(
      `${R}/personal/environments/built.md`,
      '---\nprovider: local\nsetup:\n  - echo built > built.txt\n---\n',
    )
    expect(built.status, JSON.stringify(built.body)).toBe(201)
    const first = await client.post(`${E}/built/commands`, { command: 'ls' })
    expect([first.status, first.body.error?.code]).toEqual([429, 'quota_exceeded'])
    expect(await auditedBytes(id)).toBe(recorded)
    // Another person's allowance is their own.
    const other = agent.team.admin.client
    expect(
      (await other.put(`${R}/personal/environments/quiet.md`, '---\nprovider: local\n---\n')).status,
    ).toBe(201)
    expect((await other.post(`${E}/quiet/commands`, { command: 'echo fine' })).status).toBe(200)
  }, 120_000)

  it('a loop of job edits, each recording what changed, is refused once it filled the day', async () => {
    // The owner's own allowance: the member above spent theirs.
    const { client, id } = agent.team.owner
    const instructions = (n: number) => `${String(n)} ${'b'.repeat(50_000)}`
    const made = await client.post('/_agent-native/jobs', {
      name: 'churn',
      schedule: '0 7 1 1 *',
      instructions: instructions(0),
      enabled: false,
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const jobId = made.body.job.id as string
    // Each edit records about 8 KB (the trail keeps 4,000 characters of each side): two hundred
    // would be 1.6 MB.
    const statuses: number[] = []
    for (let i = 1; i <= 200 && statuses.at(-1) !== 429; i++) {
      const res = await client.patch(`/_agent-native/jobs/${jobId}`, { instructions: instructions(i) })
      statuses.push(res.status)
      if (res.status === 429) {
        expect(res.body.error).toMatchObject({
          code: 'quota_exceeded',
          message: expect.stringMatching(/job changes .*USER_MAX_AUDIT_MB_PER_DAY/),
        })
      }
    }
    expect(statuses.at(-1)).toBe(429)
    expect(statuses.length).toBeLessThan(140)
    const [row] = await queryRows<{ bytes: string }>(
      agent.app.server.db.db,
      sql`select coalesce(sum(octet_length(changes::text)), 0) as bytes from job_audit where actor_id = ${id}`,
    )
    expect(Number(row!.bytes)).toBeLessThan(MiB + 20 * 1024)
    // Nothing of the refused edit was written, and a new job is refused too.
    expect((await client.get(`/_agent-native/jobs/${jobId}`)).body.job.instructions).toBe(
      instructions(statuses.length - 1),
    )
    const another = await client.post('/_agent-native/jobs', {
      name: 'churn-2',
      schedule: '0 7 1 1 *',
      instructions: 'again',
      enabled: false,
    })
    expect(another.status).toBe(429)
  }, 120_000)

  it('a harness tool call of a person whose allowance is spent is denied, saying why', async () => {
    const c = agent.team.creator.client
    const job = await localHarnessJob(c, 'spent', 'audit-spent')
    // The creator's day fills once the run has started (Run now itself is refused past it, 0503):
    // as the model is first asked, before it answers with the tool call.
    const fillTheDay = async () => {
      await agent.app.server.db.db.execute(sql`
        insert into audit_volume (actor_id, day, bytes)
        values (${agent.team.creator.id}, (now() at time zone 'utc')::date, ${MiB})
        on conflict (actor_id, day) do update set bytes = excluded.bytes`)
      return toolUse('Bash', { command: 'echo reached', description: 'try' })
    }
    const run = await runWithReplies(agent, c, job, 'audit-spent', fillTheDay, { text: 'Done.' })
    const [call] = bashParts(run)
    expect(JSON.stringify(call)).toMatch(/USER_MAX_AUDIT_MB_PER_DAY/)
    expect(JSON.stringify(call)).not.toMatch(/"reached/)
  }, 180_000)
})
