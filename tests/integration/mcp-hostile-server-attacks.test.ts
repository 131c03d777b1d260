/**
 * Attacks by an MCP server's answers: a member controls a server the agent lists (their personal
 * one at a public address; here an organisation server on 127.0.0.1 through
 * INTEGRATIONS_ALLOW_HOSTS stands in for it: past the address check the code path is the same) and
 * answers within the client's byte and time limits, yet:
 *
 * 1. `tools/list` answers 4,000 tools (5 MiB held ~100,000): the chat turn named them in a loop
 *    copying every name taken so far for each tool, holding the event loop 1.2–2.6 s, and offered
 *    the model all of them. A server now offers at most 128 tools, in 256 KiB, or is refused whole.
 * 2. `tools/list` answers with 3,000 `ping` requests: the SDK client answered each with a POST of
 *    its own, all at once (3,000 sockets held, the loop held for seconds; 5 MiB holds ~100,000, past
 *    the process's file descriptors). A session now answers two and ends past 256 messages.
 * 3. A tool call answers `ok` with ~500 KB of structured content: all of it went to the model and
 *    into the chat thread (text is cut at 50,000 characters). It is now left out past 50,000, and a
 *    call's answer may hold 1 MiB, not 5.
 * 4. A command in a run's sandbox opens 40 event streams through the run's MCP relay: each held a
 *    connection to the server. A run now has 8 open per server; past them the relay answers 429.
 *
 * The server runs in a child process so its own work is not counted on this event loop, which is
 * watched (monitorEventLoopDelay) against the other event-loop tests' hang guard: a generous bound
 * on a loaded machine. The counts and sizes asserted fail the attacks whatever the machine's speed.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { request, type ClientRequest } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_ANSWERED_REQUESTS, MAX_MESSAGES } from '#server/integrations/mcp-session-bounds.ts'
import { MAX_CALL_BYTES, MAX_LISTING_BYTES, MAX_TOOLS_PER_SERVER } from '#server/integrations/mcp-client.ts'
import { MAX_RELAYED_OPEN_PER_SERVER } from '#server/harness/endpoint-mcp.ts'
import { serveOnSocket } from '#server/harness/socket.ts'
import { HANG_GUARD_MS } from '#tests/support/health-probe.ts'
import { startAgentApp, type AgentApp } from '#tests/support/agent-app.ts'
import { sendChat, userText } from '#tests/support/agent-chat.ts'
import { toolUse } from '#tests/support/fake-anthropic.ts'
import { openOfflineSession } from '#tests/support/harness-session.ts'
import type { Team } from '#tests/support/team.ts'

const M = '/_agent-native/mcp-servers'
// `tools/list` answers per mode (set with GET /set/<mode>/<n>): `tools` (n tools named t<i>), `fat`
// (n tools with 2 KB descriptions) or `pings` (n ping requests, the listing never answered). The
// client's answers to pings and its event streams (GET) are held open and counted; GET /stats.
// Tool calls: t0 answers ~500 KB of structured content, t1 a little, t2 2 MB of text.
const SERVER = `
import http from 'node:http'
let posts = 0, held = 0, maxHeld = 0, streams = 0, maxStreams = 0, mode = 'tools', n = 0
const sse = (m) => 'data: ' + JSON.stringify(m) + '\\n\\n'
const result = (id, result) => sse({ jsonrpc: '2.0', id, result })
function call(name) {
  if (name === 't0')
    return { content: [{ type: 'text', text: 'ok' }],
      structuredContent: { rows: Array.from({ length: 5000 }, (_, i) => ({ id: i, v: 'x'.repeat(80) })) } }
  if (name === 't1') return { content: [{ type: 'text', text: 'ok' }], structuredContent: { small: 'structured-7281' } }
  return { content: [{ type: 'text', text: 'y'.repeat(2 * 1024 * 1024) }] }
}
const server = http.createServer((req, res) => {
  if (req.url === '/stats') return res.end(JSON.stringify({ posts, held, maxHeld, streams, maxStreams }))
  const set = /^\\/set\\/(\\w+)\\/(\\d+)$/.exec(req.url)
  if (set) { mode = set[1]; n = Number(set[2]); posts = 0; maxHeld = held; maxStreams = streams; return res.end('ok') }
  if (req.method === 'GET') {
    streams++; maxStreams = Math.max(maxStreams, streams)
    req.socket.on('close', () => streams--)
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    return res.write(': open\\n\\n')
  }
  let body = ''
  req.on('data', (c) => (body += c))
  req.on('end', () => {
    posts++
    const msg = JSON.parse(body)
    if (!msg.method) {
      // The client's answer to a ping: held open, unanswered, as a server could.
      held++; maxHeld = Math.max(maxHeld, held)
      return req.socket.on('close', () => held--)
    }
    if (msg.id === undefined) { res.writeHead(202); return res.end() }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    if (msg.method === 'initialize')
      return res.end(result(msg.id, { protocolVersion: msg.params.protocolVersion,
        capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1' } }))
    if (msg.method === 'tools/list') {
      if (mode === 'pings') {
        let out = ''
        for (let i = 0; i < n; i++) out += sse({ jsonrpc: '2.0', id: 'p' + i, method: 'ping' })
        return res.write(out)
      }
      const description = mode === 'fat' ? 'd'.repeat(2048) : undefined
      const tools = Array.from({ length: n }, (_, i) => ({ name: 't' + i, description, inputSchema: { type: 'object' } }))
      return res.end(result(msg.id, { tools }))
    }
    if (msg.method === 'tools/call') return res.end(result(msg.id, call(msg.params.name)))
    res.end(result(msg.id, {}))
  })
})
server.maxConnections = 100000
server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port))
`

type Stats = { posts: number; held: number; maxHeld: number; streams: number; maxStreams: number }

let agent: AgentApp
let team: Team
let child: ChildProcess
let base: string
let serverId: string

/** The longest the event loop was held while `work` ran, in ms. */
async function longestLoopDelay<T>(work: () => Promise<T>): Promise<{ value: T; delayMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  try {
    const value = await work()
    return { value, delayMs: delay.max / 1e6 }
  } finally {
    delay.disable()
  }
}

const stats = async () => (await fetch(`${base}/stats`)).json() as Promise<Stats>
const answer = async (mode: string, n: number) =>
  expect((await fetch(`${base}/set/${mode}/${n}`)).ok).toBe(true)
const check = () => team.member.client.post(`${M}/${serverId}/check`)
/** The system prompt and the tools' names of the fake model's latest request. */
function lastRequest() {
  const body = agent.fake.requests.at(-1)!.body
  return {
    system: JSON.stringify(body.system),
    tools: ((body.tools ?? []) as { name: string }[])
      .map((t) => t.name)
      .filter((n) => n.startsWith('hostile__')),
  }
}

beforeAll(async () => {
  child = spawn(process.execPath, ['--input-type=module', '-e', SERVER], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<number>((resolve) =>
    child.stdout!.on('data', (d) => {
      const m = /PORT (\d+)/.exec(String(d))
      if (m) resolve(Number(m[1]))
    }),
  )
  base = `http://127.0.0.1:${port}`
  agent = await startAgentApp({
    key: 'sk-ant-deployment-hostile-mcp',
    env: { INTEGRATIONS_ALLOW_HOSTS: `127.0.0.1:${port}` },
  })
  team = agent.team
  // The process's first chat turn loads and compiles what every turn uses (a few hundred ms of the
  // loop): taken before the server is registered, so the attack's turn is measured on its own.
  expect((await sendChat(team.member.client, { message: userText('warm up') })).status).toBe(200)
  const added = await team.admin.client.post(M, {
    name: 'hostile',
    url: `${base}/mcp`,
    scope: 'org',
    headers: {},
  })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  serverId = added.body.server.id
  // And the first listing compiles the SDK's schemas: taken with another server, removed after.
  await answer('tools', 1)
  const warm = await team.admin.client.post(M, {
    name: 'warm',
    url: `${base}/mcp`,
    scope: 'org',
    headers: {},
  })
  expect((await team.admin.client.post(`${M}/${warm.body.server.id}/check`)).body.status.state).toBe('ok')
  expect((await team.admin.client.delete(`${M}/${warm.body.server.id}`)).status).toBe(204)
}, 240_000)
afterAll(async () => {
  await agent?.close()
  child?.kill()
})

describe("a server's tool listing", () => {
  it('of 4,000 tools is refused whole, offers the model none of them and does not hold the event loop', async () => {
    await answer('tools', 4000)
    const { value: turn, delayMs } = await longestLoopDelay(() =>
      sendChat(team.member.client, { message: userText('hello, list what you can do') }),
    )
    expect(turn.status).toBe(200)
    const { system, tools } = lastRequest()
    expect(tools).toEqual([])
    expect(system).toContain(`MCP server hostile offers more than ${MAX_TOOLS_PER_SERVER} tools`)
    expect(delayMs).toBeLessThan(HANG_GUARD_MS)
    const checked = await check()
    expect(checked.body.status).toMatchObject({
      state: 'error',
      message: `MCP server hostile offers more than ${MAX_TOOLS_PER_SERVER} tools, the most one server may offer`,
    })
  }, 120_000)

  it(`of more than ${MAX_LISTING_BYTES} bytes is refused, however few its tools`, async () => {
    await answer('fat', 200)
    const checked = await check()
    expect(checked.body.status).toMatchObject({
      state: 'error',
      message: `MCP server hostile answered more than ${MAX_LISTING_BYTES} bytes in one session`,
    })
  }, 60_000)

  it(`of ${MAX_TOOLS_PER_SERVER} tools is offered to the model whole`, async () => {
    await answer('tools', MAX_TOOLS_PER_SERVER)
    const turn = await sendChat(team.member.client, { message: userText('hello again') })
    expect(turn.status).toBe(200)
    expect(lastRequest().tools).toHaveLength(MAX_TOOLS_PER_SERVER)
  }, 60_000)

  it('answered with 3,000 pings gets two answers, not one connection per ping, and ends the session', async () => {
    await answer('pings', 3000)
    const { value: checked, delayMs } = await longestLoopDelay(check)
    expect(checked.body.status).toMatchObject({
      state: 'error',
      message: `MCP server hostile sent more than ${MAX_MESSAGES} messages in one session`,
    })
    const seen = await stats()
    // initialize, initialized, tools/list and the answers to two pings (the session may end first).
    expect(seen.maxHeld).toBeLessThanOrEqual(MAX_ANSWERED_REQUESTS)
    expect(seen.posts).toBeLessThanOrEqual(3 + MAX_ANSWERED_REQUESTS)
    expect(delayMs).toBeLessThan(HANG_GUARD_MS)
    // The session's end lets go of every connection it held.
    await expect.poll(async () => (await stats()).held).toBe(0)
  }, 60_000)
})

describe("a server's tool call", () => {
  it('answering ~500 KB of structured content has it left out of the model request and the thread', async () => {
    await answer('tools', 3)
    agent.fake.replyWhen('big-structured', toolUse('hostile__t0', {}), { text: 'Done.' })
    const turn = await sendChat(team.member.client, { message: userText('big-structured: call t0') })
    expect(turn.status).toBe(200)
    const toModel = JSON.stringify(agent.fake.requests.at(-1)!.body)
    expect(toModel).toMatch(/structured content of \d+ characters left out: more than 50000/)
    expect(toModel.length).toBeLessThan(100_000)
    const thread = await team.member.client.get(`/_agent-native/agent/threads/${turn.threadId}`)
    expect(JSON.stringify(thread.body).length).toBeLessThan(100_000)
  }, 60_000)

  it('answering a little structured content passes it on', async () => {
    agent.fake.replyWhen('small-structured', toolUse('hostile__t1', {}), { text: 'Done.' })
    const turn = await sendChat(team.member.client, { message: userText('small-structured: call t1') })
    expect(turn.status).toBe(200)
    expect(JSON.stringify(agent.fake.requests.at(-1)!.body)).toContain('structured-7281')
  }, 60_000)

  it(`answering more than ${MAX_CALL_BYTES} bytes is refused`, async () => {
    agent.fake.replyWhen('huge-text', toolUse('hostile__t2', {}), { text: 'Done.' })
    const turn = await sendChat(team.member.client, { message: userText('huge-text: call t2') })
    expect(turn.status).toBe(200)
    const toModel = JSON.stringify(agent.fake.requests.at(-1)!.body)
    expect(toModel).toContain('mcp_refused')
    expect(toModel).toContain(`MCP server hostile answered more than ${MAX_CALL_BYTES} bytes in one session`)
  }, 60_000)
})

describe("a run's MCP relay", () => {
  it(`keeps ${MAX_RELAYED_OPEN_PER_SERVER} requests to a server open at once, whatever the sandbox opens`, async () => {
    await answer('tools', 1)
    const session = openOfflineSession({
      mcp: new Map([
        [
          'hostile',
          { key: 'hostile', name: 'hostile', url: `${base}/mcp`, headers: {}, adminRegistered: true },
        ],
      ]),
    })
    const socket = await serveOnSocket(session.token)
    const opened: ClientRequest[] = []
    /** An event stream opened from the sandbox: the status it was answered with. */
    const openStream = () =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            socketPath: socket.path,
            path: `/${session.token}/mcp/hostile`,
            headers: { accept: 'text/event-stream' },
          },
          (res) => resolve(res.statusCode!),
        )
        req.on('error', reject)
        opened.push(req.end())
      })
    try {
      const statuses = await Promise.all(Array.from({ length: 40 }, openStream))
      expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_RELAYED_OPEN_PER_SERVER)
      expect(statuses.filter((s) => s === 429)).toHaveLength(40 - MAX_RELAYED_OPEN_PER_SERVER)
      expect((await stats()).maxStreams).toBe(MAX_RELAYED_OPEN_PER_SERVER)
      // Closed in the sandbox, the streams give their places back.
      for (const req of opened.splice(0)) req.destroy()
      await expect.poll(async () => (await stats()).streams).toBe(0)
      await expect.poll(openStream).toBe(200)
    } finally {
      for (const req of opened) req.destroy()
      session.close()
      await socket.close()
    }
  }, 60_000)
})
