/**
 * What a model provider's event stream says one call used, read a line at a time as it passes.
 * Anthropic's `message_start` has the input tokens and its `message_delta` at the end the output;
 * an OpenAI-compatible server sends both in its last chunk (`usage`, asked for with
 * `stream_options.include_usage`). Until the output is reported it is estimated from the text,
 * thinking and tool input streamed so far. Read by the harness's endpoint (every call of a harness)
 * and by the agent's model calls (the call a stopped run or chat turn was making, decision 0533).
 */

/**
 * Characters counted as one token: of streamed output until the provider says how many it made,
 * and of a request body when its worst case is held or it is counted unanswered.
 */
export const CHARS_PER_TOKEN = 4

/**
 * One call's tokens as the provider bills them: `inputTokens` counts every input token, and those
 * written to the prompt cache (`cacheWriteTokens`, of which `cacheWrite1hTokens` for an hour) or
 * read from it (`cacheReadTokens`) cost more or less than the rest.
 */
export type TokenUsage = {
  inputTokens: number
  outputTokens: number
  cacheReadTokens?: number
  cacheWriteTokens?: number
  cacheWrite1hTokens?: number
}

/** Anthropic's usage object, in an answer, its `message_start` or its `message_delta`. */
export type RawUsage = {
  input_tokens?: number
  output_tokens?: number
  cache_creation_input_tokens?: number
  cache_read_input_tokens?: number
  /** The cache writes by lifetime (a request may mark blocks for 5 minutes and for an hour). */
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number }
  server_tool_use?: { web_search_requests?: number }
}

/**
 * What a call cut off before the provider reported its input counts as spent (decision 0533): its
 * request body at CHARS_PER_TOKEN characters a token, since the provider has read it and bills it,
 * and the output streamed before the cut (none when its answer had not begun).
 */
export function cutOffUsage(bodyChars: number, streamedOutputTokens = 0): TokenUsage {
  return { inputTokens: Math.ceil(bodyChars / CHARS_PER_TOKEN), outputTokens: streamedOutputTokens }
}

const count = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0)

/** Anthropic's usage as tokens: cache reads and writes are input too. */
export function usageOf(u: RawUsage | undefined): TokenUsage {
  const written = count(u?.cache_creation_input_tokens)
  const read = count(u?.cache_read_input_tokens)
  return {
    inputTokens: count(u?.input_tokens) + written + read,
    outputTokens: count(u?.output_tokens),
    cacheReadTokens: read,
    cacheWriteTokens: written,
    cacheWrite1hTokens: Math.min(written, count(u?.cache_creation?.ephemeral_1h_input_tokens)),
  }
}

/** The provider's web searches a call made (billed apart from its tokens). */
export const searchesOf = (u: RawUsage | undefined): number => u?.server_tool_use?.web_search_requests ?? 0

export type StreamUsage = {
  /** Reads one line of the stream; true when what the call used changed. */
  line: (text: string) => boolean
  /** A line too long to read, of `bytes` bytes: they count as streamed output. */
  overLong: (bytes: number) => boolean
  /** The tokens so far: the input as reported (0 until it is), the output reported or estimated. */
  usage: () => TokenUsage
  /** Whether the provider has said how many input tokens the call has. */
  inputReported: () => boolean
  /** Web searches reported so far. */
  searches: () => number
}

type StreamEvent = {
  type?: string
  message?: { usage?: RawUsage }
  usage?: RawUsage & { prompt_tokens?: number; completion_tokens?: number }
  delta?: { text?: unknown; thinking?: unknown; partial_json?: unknown }
  choices?: {
    delta?: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown; tool_calls?: unknown }
  }[]
}

/** The characters of output an OpenAI-compatible chunk streams: text, reasoning and tool arguments. */
function openAiChars(event: StreamEvent): number {
  let chars = 0
  for (const choice of event.choices ?? []) {
    const { content, reasoning_content, reasoning, tool_calls } = choice?.delta ?? {}
    for (const part of [content, reasoning_content, reasoning])
      if (typeof part === 'string') chars += part.length
    if (!Array.isArray(tool_calls)) continue
    for (const call of tool_calls as { function?: { arguments?: unknown } }[]) {
      const args = call?.function?.arguments
      if (typeof args === 'string') chars += args.length
    }
  }
  return chars
}

/** Reads one call's event stream in `protocol`'s words: Anthropic's Messages API or OpenAI's chat. */
export function createStreamUsage(protocol: 'anthropic' | 'openai'): StreamUsage {
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 }
  let reported = false
  let streamedChars = 0
  let searches = 0
  const estimate = () => {
    const outputTokens = Math.ceil(streamedChars / CHARS_PER_TOKEN)
    if (outputTokens <= usage.outputTokens) return false
    usage = { ...usage, outputTokens }
    return true
  }
  const anthropic = (event: StreamEvent): boolean => {
    if (event.type === 'message_start') {
      usage = usageOf(event.message?.usage)
      reported = true
      return true
    }
    if (event.type === 'content_block_delta') {
      const { text, thinking, partial_json } = event.delta ?? {}
      for (const part of [text, thinking, partial_json])
        if (typeof part === 'string') streamedChars += part.length
      return estimate()
    }
    if (event.type === 'message_delta' && typeof event.usage?.output_tokens === 'number') {
      usage = { ...usage, outputTokens: event.usage.output_tokens }
      searches = Math.max(searches, searchesOf(event.usage))
      return true
    }
    return false
  }
  const openAi = (event: StreamEvent): boolean => {
    streamedChars += openAiChars(event)
    const { prompt_tokens: input, completion_tokens: output } = event.usage ?? {}
    if (typeof input !== 'number') return estimate()
    usage = { inputTokens: count(input), outputTokens: count(output) }
    reported = true
    return true
  }
  return {
    line(text) {
      if (!text.startsWith('data:')) return false
      try {
        const event = JSON.parse(text.slice(5)) as StreamEvent
        return protocol === 'anthropic' ? anthropic(event) : openAi(event)
      } catch {
        return false // a partial or foreign line, or `[DONE]`
      }
    },
    overLong(bytes) {
      streamedChars += bytes
      return estimate()
    },
    usage: () => usage,
    inputReported: () => reported,
    searches: () => searches,
  }
}
