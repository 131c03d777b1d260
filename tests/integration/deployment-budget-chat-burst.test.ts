/**
 * The server's daily budget on its own model key (decision 0455) against chat turns sent at once
 * (decision 0496). A turn was checked once as it opened, holding nothing, so every turn sent
 * together saw the same untouched budget and each made its first model call: a script opening many
 * chats at once spent past the operator's daily bound by up to a call's worst case per turn. Now a
 * turn holds its first call's worst case from the moment it is admitted, as a run's call does
 * (decision 0480), and the others see it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'

const KEY = 'sk-ant-deployment-budget-chat-burst-0496'
const TURNS = 6

let agent: AgentApp
beforeAll(async () => {
  agent = await startAgentApp({ key: KEY, env: { DEPLOYMENT_KEY_MAX_USD_PER_DAY: '1' } })
}, 120_000)
afterAll(() => agent?.close())

it("admits as many turns sent at once as the day's budget can hold first calls for, and refuses the rest before the model", async () => {
  const prompt = 'all at once on the deployment key'
  // Every admitted turn's model call waits, so no turn ends (and stops holding) before all are in.
  let release!: () => void
  const released = new Promise<{ text: string }>((resolve) => (release = () => resolve({ text: 'Done.' })))
  agent.fake.replyWhen(prompt, ...Array.from({ length: TURNS }, () => () => released))
  const reached = () =>
    agent.fake.requests.filter((r) => JSON.stringify(r.body.messages).includes(prompt)).length
  let answered = 0
  const turns = Array.from({ length: TURNS }, (_, i) =>
    sendChat(agent.team.member.client, { message: userText(`${prompt} #${i}`) }).finally(() => answered++),
  )
  await expect.poll(() => reached() + answered).toBe(TURNS)
  release()
  const ended = await Promise.all(turns)
  // A first call's worst case on the default model is $0.96 (64,000 output tokens): the budget of
  // $1.00 admits a turn with nothing held, and one more while $0.96 is; the third sees $1.92.
  expect(reached()).toBe(2)
  const refused = ended.filter((t) => t.status === 429)
  expect(refused).toHaveLength(TURNS - 2)
  expect(refused[0]!.error).toMatchObject({
    code: 'quota_exceeded',
    message: expect.stringMatching(
      /^Paused: this server's daily budget of \$1\.00 for its own model key is reached \(\$1\.92 spent/,
    ),
  })
  // The admitted turns ended: what they hold is released, what they spent is counted.
  const more = await sendChat(agent.team.member.client, { message: userText('one more after them') })
  expect(more.status).toBe(200)
})
