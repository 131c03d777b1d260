/**
 * Attacks on an organisation MCP server's header secrets through a server that hands its request
 * headers back (a debug endpoint, a careless or compromised server): a member calls its tools in
 * chat and in a job run, and reads what the listing failure says, hoping to see the admin's token.
 * Every place the server's words reach (the model, the browser, the stored thread, the run's
 * transcript, the server's status, the system prompt) shows `[redacted header <Name>]` instead
 * (decision 0426).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, toolParts, userText } from '#tests/support/agent-chat.ts'
import { toolUse, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { addOrgMcpServer, startTestMcpServer, type TestMcpServer } from '#tests/support/mcp-server.ts'
import { runNow } from '#tests/support/runs.ts'
import type { Team } from '#tests/support/team.ts'

const M = '/_agent-native/mcp-servers'
const TOKEN = 'debug-token-4Qx81mZ'
const API_KEY = 'literal-api-key-93xk'
const AUTH = '[redacted header Authorization]'
const KEY_SHOWN = '[redacted header X-Api-Key]'

let agent: AgentApp
let team: Team
let fake: FakeAnthropic
let mcp: TestMcpServer

const debug = { name: 'debug', secret: 'DEBUG_TOKEN', token: TOKEN, headers: { 'X-Api-Key': API_KEY } }

beforeAll(async () => {
  mcp = await startTestMcpServer({ token: TOKEN, reflect: true })
  agent = await startAgentApp({
    key: 'sk-ant-deployment-mcp-0426',
    env: { INTEGRATIONS_ALLOW_HOSTS: `127.0.0.1:${mcp.port}` },
    scheduler: true,
  })
  ;({ team, fake } = agent)
  await addOrgMcpServer(team.admin.client, { ...debug, url: mcp.url })
}, 240_000)
afterAll(async () => {
  await agent?.close()
  await mcp?.close()
})

/** Neither the token (whole or after `Bearer `) nor the literal key is anywhere in `seen`. */
function expectNoSecret(seen: unknown) {
  const text = typeof seen === 'string' ? seen : JSON.stringify(seen)
  expect(text).not.toContain(TOKEN)
  expect(text).not.toContain(API_KEY)
}

describe("a member reads an org MCP server's header secrets back through its answers", () => {
  it("in a tool's result, structured content, description and name, in chat", async () => {
    const named = 'debug___redacted_header_Authorization_'
    fake.replyWhen('reflect-chat', toolUse('debug__whoami', {}), toolUse(named, {}), { text: 'Done.' })
    const turn = await sendChat(team.member.client, { message: userText('reflect-chat: who am I?') })
    expect(turn.status).toBe(200)
    const [part] = toolParts(turn.reply, 'debug__whoami')
    expect(part.output).toMatchObject({
      ok: true,
      content: `Request headers: ${JSON.stringify({ authorization: AUTH, 'x-api-key': KEY_SHOWN })}; token ${AUTH}`,
      structured: { headers: { authorization: AUTH, 'x-api-key': KEY_SHOWN }, token: AUTH },
    })
    const offered = fake.requests.at(-1)!.body.tools as { name: string; description: string }[]
    expect(offered.find((t) => t.name === 'debug__whoami')!.description).toContain(
      `this request came with ${AUTH}`,
    )
    // The tool named after the token is offered under the placeholder, and still called by its name.
    const [byName] = toolParts(turn.reply, named)
    expect(byName.output).toMatchObject({
      ok: true,
      tool: AUTH,
      content: 'You found the tool named after you.',
    })
    expectNoSecret(turn.raw)
    expectNoSecret(fake.requests.map((r) => r.body))
    const thread = await team.member.client.get(`/_agent-native/agent/threads/${turn.threadId}`)
    expectNoSecret(thread.body)
  })

  it("in a tool's own error and in a failed call's message", async () => {
    fake.replyWhen('reflect-fail', toolUse('debug__whoami_fails', {}), toolUse('debug__whoami_breaks', {}), {
      text: 'Done.',
    })
    const turn = await sendChat(team.member.client, { message: userText('reflect-fail') })
    const [fails] = toolParts(turn.reply, 'debug__whoami_fails')
    expect(fails.output.error).toMatchObject({
      code: 'mcp_tool_error',
      message: `${KEY_SHOWN} may not ask that (sent ${AUTH})`,
    })
    const [breaks] = toolParts(turn.reply, 'debug__whoami_breaks')
    expect(breaks.output.error.message).toContain(`"authorization":"${AUTH}"`)
    expectNoSecret(turn.raw)
    expectNoSecret(fake.requests.map((r) => r.body))
  })

  it("in a job run's transcript", async () => {
    const created = await team.creator.client.post('/_agent-native/jobs', {
      name: 'reflect-digest',
      schedule: '0 7 * * 1-5',
      instructions: 'reflect-run: who runs this?',
      mcp: ['debug'],
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    fake.replyWhen('reflect-run', toolUse('debug__whoami', {}), { text: 'Done.' })
    const { run, transcript } = await runNow(team.creator.client, created.body.job.id)
    expect(run.status).toBe('success')
    expect(JSON.stringify(transcript)).toContain(AUTH)
    expectNoSecret(transcript)
  })

  it("in the server's status and the system prompt when it cannot be listed", async () => {
    const id = await addOrgMcpServer(team.admin.client, {
      ...debug,
      name: 'broken',
      url: `${mcp.url}/broken`,
    })
    const check = await team.member.client.post(`${M}/${id}/check`)
    expect(check.body.status).toMatchObject({ state: 'error', message: expect.stringContaining(AUTH) })
    expectNoSecret(check.body)
    expectNoSecret((await team.member.client.get(M)).body)

    fake.replyWhen('reflect-broken', { text: 'Fine.' })
    const turn = await sendChat(team.member.client, { message: userText('reflect-broken') })
    expect(turn.status).toBe(200)
    const system = JSON.stringify(fake.requests.at(-1)!.body.system)
    expect(system).toContain('MCP server broken')
    expectNoSecret(system)
    await team.admin.client.delete(`${M}/${id}`)
  })
})
