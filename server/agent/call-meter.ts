/**
 * The model calls of a run or a chat turn that no finished step has counted yet (decision 0533):
 * the one in flight, or one whose step never finished (stopped while its tools ran). A step's
 * usage reaches the run's count when it ends; a run cancelled or a turn stopped in the middle of a
 * call ends no step, yet the provider has read the call and billed its input, and the output it
 * streamed. Those calls are counted as spent from what is known of them: the input the provider
 * reported as its answer began, else the request body's characters at CHARS_PER_TOKEN (as a harness
 * call's worst case is held, decision 0497, and its endpoint counts a call cut off: stream-usage.ts
 * `cutOffUsage`); the output reported, else that streamed.
 * Calls go through {@link CallMeter.fetch}, the provider's fetch, and are read as they pass.
 */
import type { ModelProvider } from '../keys/schema.ts'
import { lineReader } from '../harness/lines.ts'
import { createStreamUsage, cutOffUsage, type StreamUsage, type TokenUsage } from '../lib/stream-usage.ts'

/** A call through the meter: its body's size, and its answer's stream once there is one. */
type MeteredCall = {
  bodyChars: number
  /** `failed`: an error answer, or no answer for a reason other than our stop; not billed. */
  state: 'waiting' | 'answered' | 'failed'
  stream: StreamUsage | null
  /** Its answer has been read to its end (or it failed): a finished step has its usage. */
  ended: boolean
}

export type CallMeter = {
  /** The provider's fetch, given to the AI SDK: every call it makes is metered. */
  fetch: typeof fetch
  /** A step finished and counted its call (and any failed tries before it): they are forgotten. */
  settle: () => void
  /** The tokens of each call no finished step has counted: the one in flight, or an unfinished step's. */
  unsettled: () => TokenUsage[]
}

/** Meters the calls made through `inner` to a provider speaking `provider`'s protocol. */
export function createCallMeter(inner: typeof fetch, provider: ModelProvider): CallMeter {
  const calls = new Set<MeteredCall>()
  const protocol = provider === 'anthropic' ? 'anthropic' : 'openai'
  const metered: typeof fetch = async (input, init) => {
    const body = init?.body
    const call: MeteredCall = {
      bodyChars: typeof body === 'string' ? body.length : 0,
      state: 'waiting',
      stream: null,
      ended: false,
    }
    calls.add(call)
    let response: Response
    try {
      response = await inner(input, init)
    } catch (err) {
      // Stopped before the answer came: the provider has the call. Any other failure: no answer.
      if (!init?.signal?.aborted) Object.assign(call, { state: 'failed', ended: true })
      throw err
    }
    if (!response.ok || !response.body) {
      Object.assign(call, { state: response.ok ? 'answered' : 'failed', ended: true })
      return response
    }
    call.state = 'answered'
    const stream = (call.stream = createStreamUsage(protocol))
    const lines = lineReader({
      line: (text) => stream.line(text),
      overLong: (bytes) => stream.overLong(bytes),
    })
    const read = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        lines.push(chunk)
        controller.enqueue(chunk)
      },
      flush() {
        lines.end()
        call.ended = true
      },
    })
    const { status, statusText, headers } = response
    return new Response(response.body.pipeThrough(read), { status, statusText, headers })
  }
  return {
    fetch: metered,
    settle() {
      for (const call of calls) if (call.ended) calls.delete(call)
    },
    unsettled() {
      const counted: TokenUsage[] = []
      for (const call of calls) {
        if (call.state === 'failed') continue
        const { stream } = call
        if (stream?.inputReported()) counted.push(stream.usage())
        else counted.push(cutOffUsage(call.bodyChars, stream?.usage().outputTokens))
      }
      return counted
    },
  }
}
