/**
 * A harness started by run_harness in a chat turn counts towards the server's daily budget on its
 * own key (decision 0455) with the turn's finished steps. Those steps are written to the turn's
 * record as they finish, and the grant carried them again as "spent before", unwritten: the day's
 * sum held them twice, so the harness was stopped early. The grant now writes to the turn's record.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { modelGrant } from '#server/agent/harness-grant.ts'
import { readModelChoice } from '#server/agent/model.ts'
import { queryRows } from '#server/db/sql.ts'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'

const KEY = 'sk-ant-deployment-budget-harness-chat'
/** 100k input + 10k output tokens on claude-sonnet-4-5: $0.30 + $0.15 = $0.45 a call. */
const pricey = { input_tokens: 100_000, output_tokens: 10_000 }

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({
    key: KEY,
    env: { DEPLOYMENT_KEY_MAX_USD_PER_DAY: '1', DEPLOYMENT_KEY_MAX_RUN_COST_USD: '10' },
  })
}, 120_000)
afterAll(() => agent?.close())

describe("a harness started from a chat turn on the deployment's key", () => {
  it("counts the turn's spending once against the server's daily budget", async () => {
    agent.fake.replyWhen('spend a little', { text: 'Done.', usage: pricey })
    const turn = await sendChat(agent.team.member.client, { message: userText('spend a little') })
    expect(turn.status).toBe(200)
    const [recorded] = await queryRows<{ id: string; cost_usd: string }>(
      agent.app.server.db.db,
      sql`select id, cost_usd from chat_turns`,
    )
    expect(Number(recorded!.cost_usd)).toBe(0.45)

    // What run_harness gives the harness in that turn: its record, and the $0.45 it had spent.
    const grant = modelGrant(
      { choice: readModelChoice(), keySource: 'deployment', apiKey: KEY, fetch },
      {
        orgId: agent.team.orgId,
        cap: null,
        record: { kind: 'turn', id: recorded!.id },
        spentBeforeUsd: 0.45,
      },
    )
    // $0.45 + $0.20 of the harness's: $0.65 under the $1 budget (counted twice, $1.10 refused it).
    expect(await grant.admit!(0.2, 0)).toBeNull()
    const [after] = await queryRows<{ cost_usd: string }>(
      agent.app.server.db.db,
      sql`select cost_usd from chat_turns`,
    )
    expect(Number(after!.cost_usd)).toBe(0.65)
    // $0.45 + $0.60 reaches it.
    expect(await grant.admit!(0.6, 0)).toMatch(
      /daily budget of \$1\.00 for its own model key is reached \(\$1\.05 spent/,
    )
  })
})
