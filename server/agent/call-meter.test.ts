/**
 * The meter of a run's or a chat turn's model calls (decision 0533): a call no finished step has
 * counted is counted by what the provider said of it, else by its request's size; a call the
 * provider refused is not; a finished step forgets the calls that have ended.
 */
import { describe, expect, it } from 'vitest'
import { createCallMeter } from './call-meter.ts'

const BODY = 'x'.repeat(4_001) // 1,001 tokens at four characters a token

/** A provider answering with `events` as server-sent events, the last ones only once `more` is called. */
function streaming(events: unknown[], held: unknown[] = []) {
  let more = () => {}
  const encode = (e: unknown) => new TextEncoder().encode(`data: ${JSON.stringify(e)}\n\n`)
  const provider: typeof fetch = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        async start(controller) {
          for (const e of events) controller.enqueue(encode(e))
          await new Promise<void>((resolve) => (more = resolve))
          for (const e of held) controller.enqueue(encode(e))
          controller.close()
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    )
  return { provider, more: () => more() }
}

async function readSome(response: Response, chunks: number) {
  const reader = response.body!.getReader()
  for (let i = 0; i < chunks; i++) await reader.read()
  return reader
}

describe('createCallMeter', () => {
  it('counts a call still waiting for its answer by its body, at four characters a token', async () => {
    const meter = createCallMeter(() => new Promise<Response>(() => {}), 'anthropic')
    void meter.fetch('http://provider/v1/messages', { method: 'POST', body: BODY })
    expect(meter.unsettled()).toEqual([{ inputTokens: 1_001, outputTokens: 0 }])
  })

  it('counts a call stopped before its answer, but not one that failed or was refused', async () => {
    const stopped = new AbortController()
    const meter = createCallMeter(async (_, init) => {
      if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError')
      if (init?.body === 'refused') return new Response('{}', { status: 529 })
      throw new TypeError('fetch failed')
    }, 'anthropic')
    stopped.abort()
    await expect(meter.fetch('http://p', { body: BODY, signal: stopped.signal })).rejects.toThrow()
    expect((await meter.fetch('http://p', { body: 'refused' })).status).toBe(529)
    await expect(meter.fetch('http://p', { body: 'broken' })).rejects.toThrow('fetch failed')
    expect(meter.unsettled()).toEqual([{ inputTokens: 1_001, outputTokens: 0 }])
  })

  it("takes Anthropic's input once its answer began, and estimates the output streamed", async () => {
    const { provider } = streaming([
      { type: 'message_start', message: { usage: { input_tokens: 50_000, cache_read_input_tokens: 2_000 } } },
      { type: 'content_block_delta', delta: { text: 'a'.repeat(40) } },
    ])
    const meter = createCallMeter(provider, 'anthropic')
    await readSome(await meter.fetch('http://p', { body: BODY }), 2)
    expect(meter.unsettled()).toEqual([
      expect.objectContaining({ inputTokens: 52_000, outputTokens: 10, cacheReadTokens: 2_000 }),
    ])
  })

  it("takes an OpenAI-compatible server's usage, and estimates its streamed text and tool arguments", async () => {
    const delta = { content: 'a'.repeat(20), tool_calls: [{ function: { arguments: 'b'.repeat(20) } }] }
    const { provider, more } = streaming(
      [{ choices: [{ delta }] }],
      [{ choices: [], usage: { prompt_tokens: 900, completion_tokens: 30 } }],
    )
    const meter = createCallMeter(provider, 'openai-compatible')
    const reader = await readSome(await meter.fetch('http://p', { body: BODY }), 1)
    expect(meter.unsettled()).toEqual([{ inputTokens: 1_001, outputTokens: 10 }])
    more()
    await reader.read()
    expect(meter.unsettled()).toEqual([{ inputTokens: 900, outputTokens: 30 }])
  })

  it('forgets a call read to its end once its step finished, and keeps one still streaming', async () => {
    const { provider, more } = streaming([{ type: 'message_start', message: { usage: { input_tokens: 7 } } }])
    const meter = createCallMeter(provider, 'anthropic')
    const reader = await readSome(await meter.fetch('http://p', { body: BODY }), 1)
    meter.settle()
    expect(meter.unsettled()).toHaveLength(1)
    more()
    while (!(await reader.read()).done);
    meter.settle()
    expect(meter.unsettled()).toEqual([])
  })
})
