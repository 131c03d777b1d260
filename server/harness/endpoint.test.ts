/**
 * The run's endpoint waits for a harness's policy plugin: a CLI that did not load it (a wrong
 * path, a CLI version that ignores it) would run every tool call unjudged, so no model call of
 * such a run reaches the provider, and the run is told why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeAnthropic, type FakeAnthropic } from '#tests/support/fake-anthropic.ts'
import { handleHarnessRequest, LONG_LINE_ERROR, NO_POLICY_PLUGIN, openSession } from './endpoint.ts'
import { HARNESS_LINE_MAX_BYTES } from './lines.ts'

let fake: FakeAnthropic
beforeAll(async () => {
  fake = await startFakeAnthropic({ fallback: { text: 'Done.' } })
})
afterAll(async () => {
  await fake?.close()
})

function session(awaitCheckIn: boolean, placeLost?: () => Promise<string | null>) {
  const refusals: string[] = []
  const opened = openSession({
    grant: { baseURL: fake.baseURL, apiKey: 'sk-test', modelId: 'claude-test', price: () => 0, cap: null },
    decide: async () => ({ allow: true }),
    mcp: new Map(),
    redact: (text) => text,
    onRefusal: (reason) => refusals.push(reason),
    awaitCheckIn,
    door: 'socket',
    placeLost,
  })
  return { opened, refusals }
}

const post = (token: string, path: string, body: unknown) =>
  handleHarnessRequest(
    token,
    path,
    new Request(`http://endpoint${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    'socket',
  )

const message = { model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }

describe('a harness whose policy is a plugin', () => {
  it('gets no model call through until the plugin has announced itself, and the run is told why', async () => {
    const { opened, refusals } = session(true)
    const before = fake.requests.length
    const refused = await post(opened.token, '/v1/messages', message)
    expect(refused.status).toBe(403)
    expect(JSON.stringify(await refused.json())).toContain(NO_POLICY_PLUGIN)
    expect(refusals).toEqual([NO_POLICY_PLUGIN])
    expect(fake.requests.length).toBe(before)
    opened.close()
  })

  it('is forwarded once the plugin said it is loaded', async () => {
    const { opened, refusals } = session(true)
    expect((await post(opened.token, '/hook', { hook_event_name: 'PolicyLoaded' })).status).toBe(200)
    const answered = await post(opened.token, '/v1/messages', message)
    expect(answered.status).toBe(200)
    expect(refusals).toEqual([])
    expect(opened.calls.length).toBe(1)
    opened.close()
  })

  it('does not wait for a harness whose hook is in the settings it starts with', async () => {
    const { opened } = session(false)
    expect((await post(opened.token, '/v1/messages', message)).status).toBe(200)
    opened.close()
  })
})

describe('metering a streamed model call', () => {
  it('counts a call whose stream the harness stops reading before its end', async () => {
    // A command in the harness's sandbox can call the endpoint itself (its URL and token are in
    // the CLI's environment), read the answer and drop the stream before the last event: the
    // provider bills the call, so the run (its maxCostUsd, the organisation's budget) must too.
    const refusals: string[] = []
    const opened = openSession({
      grant: {
        baseURL: fake.baseURL,
        apiKey: 'sk-test',
        modelId: 'claude-test',
        price: (_, u) => u.inputTokens + u.outputTokens,
        cap: { usd: 5, rule: 'job' },
      },
      decide: async () => ({ allow: true }),
      mcp: new Map(),
      redact: (text) => text,
      onRefusal: (reason) => refusals.push(reason),
      awaitCheckIn: false,
      door: 'socket',
    })
    const answered = await post(opened.token, '/v1/messages', { ...message, stream: true })
    expect(answered.status).toBe(200)
    const reader = answered.body!.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toContain('message_start')
    await reader.cancel()
    expect(opened.calls).toHaveLength(1)
    expect(opened.usage().inputTokens).toBeGreaterThan(0)
    expect(opened.usage().costUsd).toBeGreaterThan(5)

    // Over its cap, so the next call is refused.
    expect((await post(opened.token, '/v1/messages', message)).status).toBe(403)
    expect(refusals).toHaveLength(1)
    opened.close()
  })
})

describe('a streamed model call with a line of 50 MB', () => {
  it('is ended once the line passes the bound, with an error event saying why, its bytes metered', async () => {
    // A broken or hostile provider (or one huge event): the endpoint read the stream by joining
    // and splitting all it held on every chunk, the square of the line's length, with no end.
    const { opened, refusals } = session(false)
    fake.reply({ longLine: 50_000_000 })
    const answered = await post(opened.token, '/v1/messages', { ...message, stream: true })
    expect(answered.status).toBe(200)
    const text = await answered.text()
    // Nothing of the over-long line was passed on, only the error the CLI shows.
    expect(text.length).toBeLessThan(1024)
    expect(text).toContain('event: error')
    expect(JSON.stringify(text)).toContain(LONG_LINE_ERROR)
    const request = fake.requests.at(-1)!
    await expect.poll(() => request.aborted).toBe(true)
    // Cut well before its end (the sockets between held some more when it was cut).
    expect(request.lineBytes).toBeLessThan(25_000_000)
    // What the provider sent counts as output, as streamed text would.
    expect(opened.calls).toHaveLength(1)
    expect(opened.calls[0]!.outputTokens).toBeGreaterThan(HARNESS_LINE_MAX_BYTES / 4)
    expect(refusals).toEqual([])
    opened.close()
  })
})

describe('a model call for a model without a price', () => {
  it('is refused unless it is the run’s own model: a command cannot spend past the cap on an unpriced one', async () => {
    // A command in the harness's sandbox calls the endpoint itself and names a model the price
    // table does not list: its cost would be null, and neither maxCostUsd nor the organisation's
    // budget would ever see it.
    const priced: Record<string, number> = { 'claude-sonnet-4-5': 3 }
    const opened = openSession({
      grant: {
        baseURL: fake.baseURL,
        apiKey: 'sk-test',
        modelId: 'claude-sonnet-4-5',
        price: (model, u) => (model in priced ? (u.inputTokens + u.outputTokens) * priced[model]! : null),
        cap: { usd: 1_000, rule: 'job' },
      },
      decide: async () => ({ allow: true }),
      mcp: new Map(),
      redact: (text) => text,
      onRefusal: () => {},
      awaitCheckIn: false,
      door: 'socket',
    })
    const before = fake.requests.length
    const refused = await post(opened.token, '/v1/messages', { ...message, model: 'claude-3-opus-20240229' })
    expect(refused.status).toBe(400)
    expect((await refused.json()).error.message).toContain('no price for the model "claude-3-opus-20240229"')
    expect(fake.requests.length).toBe(before)
    expect(opened.calls).toEqual([])

    // The run's own model is forwarded and counted.
    expect(
      (await post(opened.token, '/v1/messages', { ...message, model: 'claude-sonnet-4-5' })).status,
    ).toBe(200)
    expect(opened.calls).toHaveLength(1)
    expect(opened.usage().costUsd).toBeGreaterThan(0)
    opened.close()
  })
})

describe('a harness run whose person lost their place (decision 0476)', () => {
  const LOST = 'Mallory is no longer a member of Acme: this harness run can act no more'

  it('has its hook deny, its MCP refused and its model call refused, and the run is told once', async () => {
    let lost: string | null = null
    const { opened, refusals } = session(false, async () => lost)
    const before = fake.requests.length
    expect((await post(opened.token, '/v1/messages', message)).status).toBe(200)

    lost = LOST
    const hook = await post(opened.token, '/hook', { tool_name: 'Bash', tool_input: { command: 'ls' } })
    expect((await hook.json()).hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: LOST,
    })
    const mcp = await post(opened.token, '/mcp/tracker', { jsonrpc: '2.0', id: 1, method: 'tools/list' })
    expect(mcp.status).toBe(403)
    expect(await mcp.json()).toEqual({ error: LOST })
    const call = await post(opened.token, '/v1/messages', message)
    expect(call.status).toBe(403)
    expect(JSON.stringify(await call.json())).toContain(LOST)
    expect(fake.requests.length).toBe(before + 1)
    expect(refusals).toEqual([LOST])
    opened.close()
  })
})
