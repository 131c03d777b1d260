/**
 * A harness run's policy hook writes an audit row for each tool call its harness reports, with the
 * command, path or address as the row's subject. What reports it is whatever runs in the run's
 * sandbox: the CLI, or a command the CLI ran that calls the hook itself. The attack is such a
 * command (the real Claude Code CLI runs it for the fake model): it reports a `Write` whose path
 * and a `Bash` whose command are 8 MB each. Every row it makes is kept in the shared database and
 * read back whole by the environment's audit page, 200 rows at a time.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryRows } from '#server/db/sql.ts'
import { MAX_COMMAND_LINE } from '#server/environments/policy/policy.ts'
import { HOOK_BURST, HOOK_PER_SECOND } from '#server/harness/hook-pace.ts'
import type { AgentApp } from '#tests/support/agent-app.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import {
  bashParts,
  localHarnessJob,
  postToEndpoint,
  runWithReplies,
  startHarnessApp,
} from '#tests/support/harness-runs.ts'

const KEY = 'sk-ant-harness-hook-attacks-6021'

let agent: AgentApp
beforeAll(async () => {
  agent = await startHarnessApp({ key: KEY, environmentsDir: 'clockwork-harness-hook-', scheduler: true })
}, 120_000)
afterAll(() => agent?.close())

/** Shell that writes a hook payload for `tool` whose `field` is 8,000,000 `a`s to `file`. */
const payload = (file: string, tool: string, field: string) =>
  [
    `printf '{"hook_event_name":"PreToolUse","tool_name":"${tool}","tool_input":{"${field}":"' > ${file}`,
    `head -c 8000000 /dev/zero | tr '\\0' a >> ${file}`,
    `printf '"}}' >> ${file}`,
  ].join(' && ')

describe('the audit rows a harness’s hook writes', () => {
  it('keep at most a command line’s length of what the sandbox reports', async () => {
    const c = agent.team.creator.client
    const job = await localHarnessJob(c, 'hooked', 'hook-flood')
    const command = [
      payload('write.json', 'Write', 'file_path'),
      payload('bash.json', 'Bash', 'command'),
      postToEndpoint('write.json', '/hook'),
      postToEndpoint('bash.json', '/hook'),
    ].join(' && ')
    const run = await runWithReplies(
      agent,
      c,
      job,
      'hook-flood',
      toolUse('Bash', { command, description: 'report' }),
      { text: 'Done.' },
    )
    const [flood] = bashParts(run)
    expect(flood.state, JSON.stringify(flood)).toBe('output-available')
    expect(JSON.stringify(flood.output)).toContain('/hook=200 /hook=200')

    const rows = await queryRows<{ kind: string; decision: string; length: number }>(
      agent.app.server.db.db,
      sql`select kind, decision, length(subject) as length from environment_audit
          where run_id = ${run.run.id} order by id`,
    )
    // The CLI's own Bash call, then the two the command reported.
    expect(rows.map((r) => `${r.kind} ${r.decision}`)).toEqual([
      'command allowed',
      'write allowed',
      'command denied',
    ])
    for (const row of rows) expect(row.length).toBeLessThan(MAX_COMMAND_LINE + 100)
  }, 180_000)
})

describe('how often a harness’s hook decides', () => {
  it('is paced per run: a command asking 600 times at once gets a burst judged, the rest denied unaudited', async () => {
    const c = agent.team.creator.client
    const job = await localHarnessJob(c, 'paced', 'hook-pace')
    const ask = `curl -s -H 'content-type: application/json' --data-binary @ask.json "$ANTHROPIC_BASE_URL/hook"`
    const command = [
      `printf '%s' '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo hi"}}' > ask.json`,
      // The answers, and how many of them say the run is paced.
      `seq 600 | xargs -P 20 -I{} ${ask} -w '\\n' > answers.txt`,
      `printf 'paced=%s ' "$(grep -o 'Paced: this run asked for more than' answers.txt | wc -l)"`,
    ].join(' && ')
    const started = Date.now()
    const run = await runWithReplies(
      agent,
      c,
      job,
      'hook-pace',
      toolUse('Bash', { command, description: 'ask' }),
      { text: 'Done.' },
    )
    const seconds = (Date.now() - started) / 1000
    const [flood] = bashParts(run)
    expect(flood.state, JSON.stringify(flood)).toBe('output-available')
    const paced = Number(/paced=(\d+)/.exec(JSON.stringify(flood.output))?.[1])

    const [row] = await queryRows<{ count: number }>(
      agent.app.server.db.db,
      sql`select count(*)::int as count from environment_audit where run_id = ${run.run.id}`,
    )
    // Unpaced, every ask was judged and audited: 601 rows with the CLI's own. Paced, the burst and what refilled
    // while the run went (the CLI's own call among them).
    expect(row!.count).toBeLessThanOrEqual(HOOK_BURST + Math.ceil(seconds * HOOK_PER_SECOND))
    // What was not judged was denied with the reason: the asks come back answered either way.
    expect(paced).toBeGreaterThanOrEqual(600 - row!.count)
  }, 180_000)
})
