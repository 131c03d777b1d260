/**
 * A fake Anthropic Messages API on a real port, so tests run the real provider code over real
 * HTTP and never the network. Tests script replies in order (a reply can depend on the request);
 * it answers JSON or, when the request asks for `stream: true`, server-sent events, with text,
 * `tool_use` and `thinking` blocks (the notes a model writes between tool calls, decision 0460).
 * Point `ANTHROPIC_BASE_URL` at `baseURL` (it ends in `/v1`, as the AI SDK expects).
 * It also answers what the Claude Code CLI sends (`?beta=true`, `count_tokens`), and the list of
 * models a key is checked with when it is saved (`GET /v1/models`, decision 0514).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { once } from 'node:events'

export type FakeBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id?: string; name: string; input: Record<string, unknown> }
  /** A thinking block; `thinking: ''` is what a model sends when the request did not ask to show it. */
  | { type: 'thinking'; thinking: string; signature?: string }

export type FakeReply =
  | { text: string; usage?: FakeUsage; stopReason?: string }
  | { content: FakeBlock[]; usage?: FakeUsage; stopReason?: string }
  /** An error answer; `headers` e.g. `{ 'retry-after-ms': '50' }` to pace the client's retries. */
  | { status: number; errorType?: string; message: string; headers?: Record<string, string> }
  /**
   * Never answers; the request ends only when the client aborts it. With `started`, a streamed
   * request gets its answer's first event (`message_start`, reporting `started` as its input)
   * before the wait: a call the provider has begun to answer, and billed.
   */
  | { hang: true; started?: FakeUsage }
  /**
   * A stream whose first event's `data:` line is `longLine` bytes long (a broken or hostile
   * provider's), written 64 KiB at a time with no newline until its end.
   */
  | { longLine: number }

export type FakeUsage = {
  input_tokens: number
  output_tokens: number
  cache_creation_input_tokens?: number
  cache_read_input_tokens?: number
  /** The cache writes by lifetime, as the API reports them beside their sum. */
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number }
}

export type FakeRequest = {
  headers: IncomingMessage['headers']
  body: Record<string, any>
  /** The length of the request's body as sent, in characters. */
  bodyChars: number
  aborted: boolean
  /** The request's `thinking` field (e.g. `{ type: 'adaptive', display: 'updates' }`), null when absent. */
  thinking: Record<string, unknown> | null
  /** The usage the answer reported (set when it is sent). */
  usage?: FakeUsage
  /** For a `longLine` reply: the bytes of the line written so far. */
  lineBytes?: number
}

export type FakeAnthropic = {
  /** e.g. `http://127.0.0.1:41234/v1`. */
  baseURL: string
  /** Every request received, in order. */
  requests: FakeRequest[]
  /**
   * Queues replies, used one per request in order; after they run out, `fallback` answers. A reply
   * may be a function of the request, and may answer a promise: the request waits for it (a test
   * holding a model call while something else happens).
   */
  reply(...replies: Scripted[]): void
  /**
   * Queues replies only for requests whose messages contain `match` (e.g. a token in the prompt),
   * ahead of the shared queue, so tests running side by side do not take each other's replies.
   */
  replyWhen(match: string, ...replies: Scripted[]): void
  /**
   * Answers every request sent with `key` with `error`, whatever the key check would say: a real
   * key the provider refuses for another reason (no credit left: a 400, as the real API answers).
   * `null` answers it as before again.
   */
  failKey(key: string, error: Extract<FakeReply, { status: number }> | null): void
  /** Takes `key` as well as `apiKey` (a key someone saves, checked when saved). */
  acceptKey(key: string): void
  /**
   * Refuses `key` from now on with the 401 the real API answers a key that is no key: a key
   * revoked after it was saved (decision 0505's case, as the save's check passed).
   */
  revokeKey(key: string): void
  /** Every `GET /v1/models` received (a key checked when saved), in order; not in `requests`. */
  listings: { headers: IncomingMessage['headers']; url: string }[]
  close(): Promise<void>
}

type Scripted = FakeReply | ((request: FakeRequest) => FakeReply | Promise<FakeReply>)

/** What the provider answers a real key whose account has no credit left: a 400, at no cost. */
export const NO_CREDIT_ANSWER = {
  status: 400,
  errorType: 'invalid_request_error',
  message: 'Your credit balance is too low to access the Anthropic API.',
}

/** A reply that calls one tool, as the model would. */
export const toolUse = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, name, input }],
})

/**
 * A reply held back until `release()`: the provider has the call and has not begun to answer it.
 * Script `reply`; call `release` (in a `finally`) once the test has looked.
 */
export function heldReply(answer: FakeReply): { reply: () => Promise<FakeReply>; release: () => void } {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  return { reply: () => held.then(() => answer), release: () => release() }
}

/** A reply that writes a note (a thinking block, as Sonnet 5.5 does) before its other blocks. */
export const withNote = (note: string, reply: { content: FakeBlock[] }) => ({
  ...reply,
  content: [{ type: 'thinking' as const, thinking: note }, ...reply.content],
})

export async function startFakeAnthropic(
  options: {
    fallback?: FakeReply
    apiKey?: string
    /**
     * Serves `POST /__control/replies` `{ match?, replies }` (queue JSON replies, see replyWhen) and
     * `GET /__control/requests`, for tests in another process (the browser tests' server).
     */
    control?: boolean
    port?: number
    /** Waits this long before answering each request (a model takes seconds; the chaos bench needs runs in flight). */
    delayMs?: number
    /**
     * Replies without a scripted `usage` report counted tokens instead of the fixed 12 in / 7 out,
     * with Anthropic's prompt caching simulated (see {@link countUsage}): what `npm run bench:tokens`
     * measures.
     */
    countTokens?: boolean
  } = {},
): Promise<FakeAnthropic> {
  const queue: Scripted[] = []
  const matched: { match: string; replies: Scripted[] }[] = []
  const takeMatched = (request: FakeRequest): Scripted | undefined => {
    const hay = JSON.stringify(request.body.messages ?? [])
    return matched.find((m) => m.replies.length > 0 && hay.includes(m.match))?.replies.shift()
  }
  const requests: FakeRequest[] = []
  const failingKeys = new Map<string, Extract<FakeReply, { status: number }>>()
  const acceptedKeys = new Set<string>()
  const revokedKeys = new Set<string>()
  const refuses = (key: string | undefined) =>
    !key ||
    revokedKeys.has(key) ||
    Boolean(options.apiKey && key !== options.apiKey && !acceptedKeys.has(key))
  const listings: FakeAnthropic['listings'] = []
  const promptCache = new Set<string>()
  const fallback = options.fallback ?? {
    status: 500,
    errorType: 'api_error',
    message: 'fake-anthropic: no reply scripted',
  }

  const server = createServer(async (req, res) => {
    const text = await readBody(req)
    if (options.control && req.url?.startsWith('/__control/')) return control(req.method, req.url, text, res)
    // Claude Code calls `/v1/messages?beta=true` and may count tokens first.
    const path = new URL(req.url ?? '/', 'http://fake').pathname
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      res.writeHead(200, { 'content-type': 'application/json' })
      return void res.end(JSON.stringify({ input_tokens: Math.ceil(text.length / 4) }))
    }
    if (req.method === 'GET' && path === '/v1/models') return listModels(req, res)
    if (req.method !== 'POST' || path !== '/v1/messages') {
      return sendError(res, 404, 'not_found_error', `fake-anthropic: no route ${req.method} ${req.url}`)
    }
    const body = JSON.parse(text || '{}')
    const request: FakeRequest = {
      headers: req.headers,
      body,
      bodyChars: text.length,
      aborted: false,
      thinking: body.thinking ?? null,
    }
    requests.push(request)
    res.on('close', () => (request.aborted = !res.writableFinished))
    const key = req.headers['x-api-key']
    const failing = typeof key === 'string' ? failingKeys.get(key) : undefined
    if (failing) return sendError(res, failing.status, failing.errorType ?? 'api_error', failing.message)
    if (refuses(typeof key === 'string' ? key : undefined)) {
      return sendError(res, 401, 'authentication_error', 'invalid x-api-key')
    }
    const next = takeMatched(request) ?? queue.shift() ?? fallback
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs))
    const reply = typeof next === 'function' ? await next(request) : next
    if ('hang' in reply) {
      if (reply.started && request.body.stream) startStream(res, request, reply.started)
      return
    }
    if ('longLine' in reply) return streamLongLine(res, request, reply.longLine)
    if ('status' in reply)
      return sendError(res, reply.status, reply.errorType ?? 'api_error', reply.message, reply.headers)
    const content = 'text' in reply ? [{ type: 'text' as const, text: reply.text }] : reply.content
    const message = {
      id: `msg_fake_${requests.length}`,
      type: 'message',
      role: 'assistant',
      model: request.body.model,
      // Unique across the conversation, as the real API's are (the UI message matches results by id).
      content: content.map((b, i) =>
        b.type === 'tool_use'
          ? { ...b, id: b.id ?? `toolu_fake_${requests.length}_${i}` }
          : b.type === 'thinking'
            ? { ...b, signature: b.signature ?? `sig_fake_${requests.length}_${i}` }
            : b,
      ),
      stop_reason: reply.stopReason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
      usage:
        reply.usage ??
        (options.countTokens
          ? countUsage(request.body, promptCache, content)
          : { input_tokens: 12, output_tokens: 7 }),
    }
    request.usage = message.usage
    if (request.body.stream) return streamMessage(res, message)
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': message.id })
    res.end(JSON.stringify(message))
  })
  /**
   * The models list, as the real API answers it: a key from `x-api-key` (with `anthropic-version`,
   * which the API requires) or, as its OpenAI-compatible layer takes it, `authorization: Bearer`.
   * `failKey` answers here too; a key the fake refuses gets the same 401 as on messages.
   */
  function listModels(req: IncomingMessage, res: ServerResponse) {
    listings.push({ headers: req.headers, url: req.url ?? '' })
    const given = req.headers['x-api-key']
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    const key = typeof given === 'string' ? given : bearer
    if (typeof given === 'string' && !req.headers['anthropic-version']) {
      return sendError(res, 400, 'invalid_request_error', 'anthropic-version: header is required')
    }
    const failing = key ? failingKeys.get(key) : undefined
    if (failing) return sendError(res, failing.status, failing.errorType ?? 'api_error', failing.message)
    if (refuses(key)) return sendError(res, 401, 'authentication_error', 'invalid x-api-key')
    const model = { type: 'model', id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5' }
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ data: [model], has_more: false, first_id: model.id, last_id: model.id }))
  }

  function control(method: string | undefined, url: string, text: string, res: ServerResponse) {
    if (method === 'POST' && url === '/__control/replies') {
      const { match, replies } = JSON.parse(text || '{}') as { match?: string; replies?: FakeReply[] }
      if (!Array.isArray(replies))
        return sendError(res, 400, 'invalid_request_error', 'replies: must be a list')
      if (match) matched.push({ match, replies })
      else queue.push(...replies)
      res.writeHead(204).end()
      return
    }
    if (method === 'GET' && url === '/__control/requests') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ requests: requests.map((r) => ({ body: r.body, aborted: r.aborted })) }))
      return
    }
    sendError(res, 404, 'not_found_error', `fake-anthropic: no control route ${method} ${url}`)
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => void queue.push(...replies),
    replyWhen: (match, ...replies) => void matched.push({ match, replies }),
    failKey: (key, error) => void (error ? failingKeys.set(key, error) : failingKeys.delete(key)),
    acceptKey: (key) => void (acceptedKeys.add(key), revokedKeys.delete(key)),
    revokeKey: (key) => void (revokedKeys.add(key), acceptedKeys.delete(key)),
    listings,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

type Message = {
  id: string
  content: (FakeBlock & { id?: string })[]
  stop_reason: string
  usage: FakeUsage
  [key: string]: unknown
}

/** Writes a stream of one `data:` line of `bytes` bytes, 64 KiB at a time, until the client goes. */
async function streamLongLine(res: ServerResponse, request: FakeRequest, bytes: number) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  res.write('event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"')
  const chunk = Buffer.alloc(64 * 1024, 'a')
  request.lineBytes = 0
  const gone = new AbortController()
  res.once('close', () => gone.abort())
  while (request.lineBytes < bytes && !res.destroyed) {
    const piece = chunk.subarray(0, Math.min(chunk.length, bytes - request.lineBytes))
    request.lineBytes += piece.length
    if (!res.write(piece)) await once(res, 'drain', { signal: gone.signal }).catch(() => {})
  }
  res.end('"}}\n\n')
}

/** An answer's head only: the stream's `message_start`, reporting `usage`, and nothing after it. */
function startStream(res: ServerResponse, request: FakeRequest, usage: FakeUsage) {
  request.usage = usage
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const message = {
    id: 'msg_fake_started',
    type: 'message',
    role: 'assistant',
    model: request.body.model,
    content: [],
    stop_reason: null,
    usage,
  }
  res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message })}\n\n`)
}

/** The Messages API's SSE sequence: message_start, one start/delta/stop per block, message_delta, message_stop. */
function streamMessage(res: ServerResponse, message: Message) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const send = (event: string, data: unknown) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  const { content, usage, stop_reason, ...head } = message
  send('message_start', {
    type: 'message_start',
    message: {
      ...head,
      content: [],
      stop_reason: null,
      usage: {
        input_tokens: usage.input_tokens,
        output_tokens: 1,
        ...(usage.cache_creation_input_tokens !== undefined
          ? { cache_creation_input_tokens: usage.cache_creation_input_tokens }
          : {}),
        ...(usage.cache_read_input_tokens !== undefined
          ? { cache_read_input_tokens: usage.cache_read_input_tokens }
          : {}),
        ...(usage.cache_creation ? { cache_creation: usage.cache_creation } : {}),
      },
    },
  })
  send('ping', { type: 'ping' })
  content.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      })
      for (const piece of chunks(block.text, 8)) {
        send('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: piece },
        })
      }
    } else if (block.type === 'thinking') {
      const start = { type: 'thinking', thinking: '' }
      send('content_block_start', { type: 'content_block_start', index, content_block: start })
      for (const piece of chunks(block.thinking, 8)) {
        const delta = { type: 'thinking_delta', thinking: piece }
        send('content_block_delta', { type: 'content_block_delta', index, delta })
      }
      const signature = { type: 'signature_delta', signature: block.signature }
      send('content_block_delta', { type: 'content_block_delta', index, delta: signature })
    } else {
      const start = { type: 'tool_use', id: block.id, name: block.name, input: {} }
      send('content_block_start', { type: 'content_block_start', index, content_block: start })
      for (const piece of chunks(JSON.stringify(block.input), 10)) {
        const delta = { type: 'input_json_delta', partial_json: piece }
        send('content_block_delta', { type: 'content_block_delta', index, delta })
      }
    }
    send('content_block_stop', { type: 'content_block_stop', index })
  })
  send('message_delta', {
    type: 'message_delta',
    delta: { stop_reason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  })
  send('message_stop', { type: 'message_stop' })
  res.end()
}

/** Tokens of a piece of a request, estimated as Anthropic's docs suggest for English: ~4 characters each. */
export const estimateTokens = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4)

/** Anthropic's smallest cacheable prefix for Sonnet and Opus models, in tokens. */
export const MIN_CACHEABLE_TOKENS = 1024

/**
 * Usage for a request as the Messages API bills it with prompt caching. The prompt is read in
 * Anthropic's order (tools, then system blocks, then message content blocks); a block carrying
 * `cache_control` ends a cacheable prefix. The longest such prefix seen before (in `cache`) is
 * read (`cache_read_input_tokens`); later marked prefixes are written (`cache_creation_input_tokens`)
 * when they reach {@link MIN_CACHEABLE_TOKENS}; the rest is `input_tokens`. Output tokens are
 * counted from the reply. Entries never expire (a bench runs well within the 5-minute lifetime).
 */
export function countUsage(body: Record<string, any>, cache: Set<string>, reply: FakeBlock[]): FakeUsage {
  const blocks: { tokens: number; key: string; marked: boolean }[] = []
  const add = (value: Record<string, any>) => {
    const { cache_control, ...rest } = value
    blocks.push({ tokens: estimateTokens(rest), key: JSON.stringify(rest), marked: Boolean(cache_control) })
  }
  for (const t of body.tools ?? []) add(t)
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? [])
  for (const b of system) add(b)
  for (const m of body.messages ?? []) {
    const content = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content
    for (const b of content) add({ role: m.role, ...b })
  }
  const total = blocks.reduce((n, b) => n + b.tokens, 0)
  // The key of each marked prefix, and its length in tokens.
  const prefixes: { key: string; tokens: number }[] = []
  let key = ''
  let tokens = 0
  for (const b of blocks) {
    key += `\n${b.key}`
    tokens += b.tokens
    if (b.marked) prefixes.push({ key, tokens })
  }
  let read = 0
  for (const p of prefixes) if (cache.has(p.key)) read = p.tokens
  let written = read
  for (const p of prefixes) {
    if (p.tokens <= read || p.tokens < MIN_CACHEABLE_TOKENS) continue
    cache.add(p.key)
    written = p.tokens
  }
  return {
    input_tokens: total - written,
    output_tokens: Math.max(1, estimateTokens(reply)),
    cache_creation_input_tokens: written - read,
    cache_read_input_tokens: read,
  }
}

function chunks(text: string, size: number): string[] {
  const out: string[] = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out.length ? out : ['']
}

function sendError(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' })
  res.end(JSON.stringify({ type: 'error', error: { type, message } }))
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => (text += chunk))
    req.on('end', () => resolve(text))
    req.on('error', reject)
  })
}
