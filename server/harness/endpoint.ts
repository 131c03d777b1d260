/**
 * The run's endpoint: everything a harness may reach outside its sandbox, behind one per-run token
 * that dies with the run. `<token>/v1/messages` forwards model calls to the provider with the key
 * the run is entitled to (the key never enters the sandbox), meters each call's tokens and cost,
 * and refuses the next call once a budget is spent or the run has ended; `<token>/hook` answers the
 * harness's pre-tool hook (the environment's policy, the audit: endpoint-hook.ts); `<token>/mcp/<name>`
 * relays to an MCP server, adding its secret headers here (endpoint-mcp.ts). Served over the run's Unix socket (socket.ts) and at
 * `/_agent-native/harness/runs/<token>/…` for harnesses on connected machines.
 */
import { randomBytes } from 'node:crypto'
import type { McpEndpoint } from '../integrations/mcp-client.ts'
import { singleton } from '../lib/singleton.ts'
import { createPolicyHook, type Decide, type PolicyHook } from './endpoint-hook.ts'
import { billedAbovePrice, reachesOutside, readCallFields, sourcedBlocks } from './call-body.ts'
import { createHookPace, HOOK_BURST, HOOK_PER_SECOND } from './hook-pace.ts'
import { fieldOf } from './message-blocks.ts'
import { asksForSearch, harnessSearchMessage, instructingText } from './search-call.ts'
import { createMcpRelay, type McpRelay } from './endpoint-mcp.ts'
import { apiError } from './endpoint-request.ts'
import { HARNESS_LINE_MAX_BYTES, lineReader } from './lines.ts'
import { CALL_OUTPUT_RESERVE_TOKENS, overCap, usd, type RunCap } from '../runs/budget.ts'
import {
  CHARS_PER_TOKEN,
  createStreamUsage,
  cutOffUsage,
  searchesOf,
  usageOf,
  type RawUsage,
  type TokenUsage,
} from '../lib/stream-usage.ts'

/** The model access a run is entitled to, as the agent resolved it (same rules as a builtin run). */
export type ModelGrant = {
  /** The Anthropic API base ending in `/v1` (ANTHROPIC_BASE_URL or the public API). */
  baseURL: string
  apiKey: string
  /** How calls reach the provider: the resolved key's fetch, which records a refusal (decision 0505). */
  fetch?: typeof fetch
  /**
   * The run's model. It alone may lack a price (the deployment chose it, as for a builtin run); a
   * call for any other model without one is refused, or the run's cap and the organisation's
   * budget would count it at nothing.
   */
  modelId: string
  /** USD for one call's tokens on `modelId`; null when the price is unknown. */
  price: (modelId: string, usage: TokenUsage) => number | null
  /** The run's cap (the job's `maxCostUsd`, the server's on its own key: quota.ts `runCap`), or null. */
  cap: RunCap | null
  /**
   * What the run (or chat turn) that started this harness had spent before it (run_harness): the
   * cap counts it with the harness's calls, and its stop says the run's whole cost.
   */
  spentBeforeUsd?: number
  /**
   * Asked before every call is forwarded, with what the run's calls cost so far (not yet in the
   * run's record) and the call's own worst case to hold (`reserveUsd`: its body's size as input
   * and the output it may ask for, decision 0497): a reason refuses it (a budget reached).
   */
  admit?: (runSpentUsd: number, reserveUsd: number) => Promise<string | null>
  /**
   * Told what the harness's calls have spent so far each time one of them ends (its answer read to
   * its end, or cut off), so the run's record shows it while the harness goes on.
   */
  onSpent?: (soFar: TokenUsage & { costUsd: number | null }) => void
}

export type { TokenUsage }
export type CallRecord = TokenUsage & { model: string; costUsd: number | null }

export type SessionOptions = {
  grant: ModelGrant
  decide: Decide
  mcp: Map<string, McpEndpoint>
  /**
   * Hides the environment's secret values in what goes to the model (the harness's commands see
   * them; their output must not carry them to the provider), as run_command's output is redacted.
   */
  redact: (text: string) => string
  /** A budget refused a call: the run must stop with this reason. */
  onRefusal: (reason: string) => void
  /** Model calls wait for the harness's policy plugin to announce itself (HarnessAdapter.checksIn). */
  awaitCheckIn?: boolean
  /**
   * Asked before every request: false once the run is over as anyone can see it (a cancel recorded
   * on any instance), so its token dies then, not when word of it reaches the run (decision 0384).
   */
  stillOn?: () => Promise<boolean>
  /**
   * Asked before every request with `stillOn`: why the run's person may no longer act (they left
   * the organisation or lost the role the run began with), or null. Once they may not, the run
   * ends with that reason and the request is refused in the asker's terms: the model call with an
   * error the CLI shows, the hook with a deny, MCP with a 403 (decision 0476).
   */
  placeLost?: () => Promise<string | null>
  /**
   * The one way the run's harness reaches the endpoint: its own Unix socket (a CLI in this
   * server's sandbox or a Docker container) or the HTTP route (a CLI on a connected machine). The
   * token is written into the run's folder inside the environment, which other people may read
   * (a shared environment's files, its other users' commands): a token used through the other
   * door is refused, so what it opens stays inside the run's sandbox.
   */
  door: EndpointDoor
}

/** How a request reached the endpoint (see {@link SessionOptions.door}). */
export type EndpointDoor = 'socket' | 'http'

export type HarnessSession = {
  token: string
  calls: CallRecord[]
  usage: () => TokenUsage & { costUsd: number | null }
  /** Ends the session: every later request is refused, in-flight upstream calls are aborted. */
  close: () => void
}

type Live = SessionOptions & {
  session: HarnessSession
  refusal: string | null
  abort: AbortController
  /** Ends when the run's latest model call has ended (calls take turns under a cap or a budget). */
  turn: Promise<void>
  /** `<token>/hook` (endpoint-hook.ts): it knows whether the policy plugin said it is loaded. */
  hook: PolicyHook
  /** `<token>/mcp/<name>` (endpoint-mcp.ts). */
  relay: McpRelay
  /** How often `count_tokens` is forwarded (hook-pace.ts's bucket). */
  countPace: { take(): boolean }
}

// Live runs, like running chat turns: a handle the test runner's copy of this module (which starts
// runs) and the server's routes (which answer a machine's calls) must share.
const sessions = singleton('harness-sessions', () => new Map<string, Live>())

export function openSession(options: SessionOptions): HarnessSession {
  const token = `hrn_${randomBytes(24).toString('base64url')}`
  const calls: CallRecord[] = []
  const abort = new AbortController()
  const session: HarnessSession = {
    token,
    calls,
    usage: () => {
      const { priced, complete } = spendOf(calls)
      return {
        inputTokens: calls.reduce((n, c) => n + c.inputTokens, 0),
        outputTokens: calls.reduce((n, c) => n + c.outputTokens, 0),
        costUsd: complete ? priced : null,
      }
    },
    close: () => {
      sessions.delete(token)
      abort.abort()
    },
  }
  sessions.set(token, {
    ...options,
    session,
    refusal: null,
    abort,
    turn: Promise.resolve(),
    hook: createPolicyHook(options.decide),
    relay: createMcpRelay(options.mcp, abort.signal),
    countPace: createHookPace(),
  })
  return session
}

const round = (n: number) => Math.round(n * 1e6) / 1e6

/** The refusal of a token no live run holds (or holds for another door): nothing says which. */
export const UNKNOWN_RUN = {
  type: 'error',
  error: { type: 'authentication_error', message: 'This harness run has ended or never existed' },
} as const
const unknownRun = () => Response.json(UNKNOWN_RUN, { status: 401 })

/**
 * Does a live run take `token` through the HTTP route? Asked before the route's body is read: the
 * body limit there is a long conversation's, and nobody without a run's token may make the server
 * hold that much (server/http/body-limit.ts).
 */
export function opensHttpDoor(token: string): boolean {
  return sessions.get(token)?.door === 'http'
}

/**
 * Answers one request of the harness run holding `token`, arrived through `door`; `path` is what
 * follows the token.
 */
export async function handleHarnessRequest(
  token: string,
  path: string,
  request: Request,
  door: EndpointDoor,
): Promise<Response> {
  const live = sessions.get(token)
  // The same answer for a token of another door: nothing says the run exists.
  if (!live || live.door !== door) return unknownRun()
  const [on, lost] = await Promise.all([live.stillOn?.() ?? true, live.placeLost?.() ?? null])
  if (!on) {
    live.session.close()
    return unknownRun()
  }
  const url = URL.parse(path, 'http://endpoint')
  if (!url) return apiError(404, 'not_found_error', 'No such endpoint')
  if (lost) return refuseLost(live, lost, url.pathname, request)
  if (request.method === 'POST' && url.pathname === '/v1/messages') return modelCall(live, url, request)
  if (request.method === 'POST' && url.pathname === '/v1/messages/count_tokens')
    return countTokens(live, url, request)
  if (request.method === 'POST' && url.pathname === '/hook') return live.hook.answer(request)
  const mcp = /^\/mcp\/([a-z0-9_-]+)$/.exec(url.pathname)
  if (mcp) return live.relay(mcp[1]!, request)
  return apiError(404, 'not_found_error', `No such endpoint: ${url.pathname}`)
}

function upstreamHeaders(live: Live, request: Request): Headers {
  const headers = new Headers({ 'x-api-key': live.grant.apiKey })
  for (const name of ['content-type', 'accept', 'anthropic-version']) {
    const value = request.headers.get(name)
    if (value) headers.set(name, value)
  }
  const betas = (request.headers.get('anthropic-beta') ?? '')
    .split(',')
    .map((beta) => beta.trim())
    .filter((beta) => beta && !WITHHELD_BETAS.test(beta))
  if (betas.length > 0) headers.set('anthropic-beta', betas.join(','))
  return headers
}

/**
 * Betas not passed on: the provider connecting to MCP servers, fetching pages, running code or
 * keeping files for the run, and the long context and fast mode, billed above the usual rates (a
 * long-context call is metered at its rates all the same, should one be served). In any case: a
 * provider reading beta names case-insensitively would otherwise take `Web-Fetch-…` for one.
 */
const WITHHELD_BETAS = /^(mcp-client|web-fetch|code-execution|files-api|context-1m|fast-mode)-/i

async function forward(live: Live, url: URL, request: Request, body: string): Promise<Response> {
  const target = `${live.grant.baseURL.replace(/\/$/, '')}${url.pathname.slice('/v1'.length)}${url.search}`
  return (live.grant.fetch ?? fetch)(target, {
    method: 'POST',
    headers: upstreamHeaders(live, request),
    body,
    signal: live.abort.signal,
  })
}

/** Why no tool call of a harness whose plugin never announced itself could be judged. */
export const NO_POLICY_PLUGIN =
  "The harness did not load Clockwork's policy plugin, so none of its tool calls could be judged: " +
  'no model call was made'

const unplugged = (live: Live) => (live.awaitCheckIn && !live.hook.checkedIn() ? NO_POLICY_PLUGIN : null)

/**
 * `count_tokens`: free at the provider, but on the run's key and its rate limit, so it passes the
 * same gates as a call, at the hook's pace (a loop in the sandbox made thousands a second). To
 * count an image or document given by URL the provider fetches it, and it may reach MCP servers
 * for their tools: such a body is refused as a call's is, and what was read is what is sent. It
 * bills nothing, so the price table's checks (the model's price, `speed`) are the provider's.
 */
async function countTokens(live: Live, url: URL, request: Request): Promise<Response> {
  const refusal = live.refusal ?? unplugged(live)
  if (refusal) return apiError(403, 'permission_error', refusal)
  if (!live.countPace.take()) return apiError(429, 'rate_limit_error', COUNT_PACED)
  const read = await readCallFields(request, live.redact)
  if (read instanceof Response) return read
  const refused = reachesOutside(read.fields)
  if (refused) return apiError(400, 'invalid_request_error', refused)
  return forward(live, url, request, JSON.stringify(read.fields))
}

const COUNT_PACED =
  `Paced: this run counted tokens more than ${HOOK_PER_SECOND} times a second after a burst of ` +
  `${HOOK_BURST}. Wait a moment and try again.`

async function modelCall(live: Live, url: URL, request: Request): Promise<Response> {
  // With a cap or a budget to ask, calls take turns: each starts once every earlier call's cost is
  // counted, so calls sent at once cannot all pass a check that none of them has paid for yet.
  const release = live.grant.cap === null && !live.grant.admit ? () => {} : await takeTurn(live)
  let handedOn = false
  try {
    const refusal = live.refusal ?? unplugged(live)
    if (refusal) return refuse(live, refusal)
    const read = await readCallFields(request, live.redact)
    if (read instanceof Response) return read
    const { fields } = read
    if (typeof fields.model !== 'string') {
      return apiError(400, 'invalid_request_error', 'model: must be a string naming the model')
    }
    const model = fields.model
    if (model !== live.grant.modelId && live.grant.price(model, NO_TOKENS) === null) {
      return apiError(
        400,
        'invalid_request_error',
        `Clockwork has no price for the model "${model}", so it could not count this call against the ` +
          `run's cost cap or the organisation's budget: use the run's model (${live.grant.modelId}) or a ` +
          'model listed under Settings → Models',
      )
    }
    const refused = reachesOutside(fields) ?? billedAbovePrice(fields)
    if (refused) return apiError(400, 'invalid_request_error', refused)
    const searchRefused = await judgeUnheardSearch(live, fields)
    if (searchRefused) return apiError(403, 'permission_error', searchRefused)
    // A call is held for at most CALL_OUTPUT_RESERVE_TOKENS of output (below, decision 0497): a
    // harness asking for more (Claude Code asks the 5.x models for 128,000) is given that.
    if (typeof fields.max_tokens === 'number' && fields.max_tokens > CALL_OUTPUT_RESERVE_TOKENS) {
      fields.max_tokens = CALL_OUTPUT_RESERVE_TOKENS
    }
    // Admitted once the call is known, so what it holds is its own worst case: its input (a
    // conversation of 100,000 tokens costs more than its answer) and the output it may write.
    const over = await live.grant.admit?.(
      pricedSpend(live),
      callWorstCase(live, model, read.chars, fields.messages),
    )
    if (over) return refuse(live, over)
    // What was checked is what is sent: a body with a key twice is sent as it was read.
    const body = JSON.stringify(fields)
    const upstream = await forward(live, url, request, body).catch((err: unknown) => {
      // Cut off by the run's stop before its answer began: the provider has the call and bills its
      // input, so it counts as its body at four characters a token, as an agent's call does (0533).
      if (live.abort.signal.aborted) {
        recordCall(live, model, cutOffUsage(body.length), 0)
        told(live)
      }
      throw err
    })
    const headers = { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }
    // One record per call, counted as soon as its usage is known and updated as the stream goes.
    let entry: CallRecord | undefined
    const record = (usage: TokenUsage, searches = 0) =>
      (entry = recordCall(live, model, usage, searches, entry))
    if (!upstream.ok || !upstream.body)
      return new Response(upstream.body, { status: upstream.status, headers })
    if (headers['content-type'].includes('text/event-stream')) {
      handedOn = true
      const ended = () => {
        release()
        told(live)
      }
      const metered = meteredStream(upstream.body, record, () => live.refusal !== null, ended)
      return new Response(metered, { status: upstream.status, headers })
    }
    const text = await upstream.text()
    try {
      const { usage } = JSON.parse(text) as { usage?: RawUsage }
      record(usageOf(usage), searchesOf(usage))
      told(live)
    } catch {
      // not JSON: nothing to meter
    }
    return new Response(text, { status: upstream.status, headers })
  } finally {
    if (!handedOn) release()
  }
}

/** Tells the run what its harness's calls have spent so far, as one of them has ended. */
const told = (live: Live) => live.grant.onSpent?.(live.session.usage())

/**
 * The run's person left or lost their role: the run ends with `reason` (the first reason to stop
 * it stays), and this request is refused as its asker shows a refusal.
 */
function refuseLost(
  live: Live,
  reason: string,
  pathname: string,
  request: Request,
): Promise<Response> | Response {
  if (!live.refusal) {
    live.refusal = reason
    live.onRefusal(reason)
  }
  if (pathname === '/hook') return live.hook.refuse(request, reason)
  if (pathname.startsWith('/mcp/')) return Response.json({ error: reason }, { status: 403 })
  return apiError(403, 'permission_error', reason)
}

function refuse(live: Live, refusal: string): Response {
  live.refusal = refusal
  live.onRefusal(refusal)
  return apiError(403, 'permission_error', refusal)
}

/** Waits for the run's earlier calls to end; returns what ends this one's turn. */
async function takeTurn(live: Live): Promise<() => void> {
  const before = live.turn
  let release!: () => void
  live.turn = new Promise<void>((resolve) => (release = resolve))
  await before
  return release
}

/**
 * The two totals of a run's calls, and which is for what. `priced` is what the calls with a known
 * price cost: the cap and the budget count it, so one call on a model without a price cannot hide
 * the rest. The run's recorded cost (`usage().costUsd`) is `priced` only when `complete`, and
 * otherwise unknown (null): a total missing a call would read as the whole.
 */
function spendOf(calls: CallRecord[]): { priced: number; complete: boolean } {
  return {
    priced: round(calls.reduce((n, c) => n + (c.costUsd ?? 0), 0)),
    complete: calls.every((c) => c.costUsd !== null),
  }
}

const pricedSpend = (live: Live) => spendOf(live.session.calls).priced

/**
 * A call that has the provider search the web (search-call.ts). The harness's own search call, for
 * a query its hook allowed and audited, passes once; any other is judged and audited here as a
 * `WebSearch` whose query is all the text that instructs the model. Before, a command in the
 * sandbox calling the endpoint itself had searches billed and counted, in no audit. Returns why it
 * is refused (the audit allowance spent, as the hook would say), or null.
 */
async function judgeUnheardSearch(live: Live, fields: Record<string, unknown>): Promise<string | null> {
  if (!asksForSearch(fields)) return null
  const message = harnessSearchMessage(fields)
  if (message !== null && live.hook.takeSearch(message)) return null
  const verdict = await live.decide({ tool: 'WebSearch', input: { query: instructingText(fields) } })
  return verdict.allow ? null : verdict.reason
}

const NO_TOKENS: TokenUsage = { inputTokens: 0, outputTokens: 0 }

/**
 * What a call may cost at most, to hold against a budget while it goes (decision 0497): its body
 * read as input tokens, and the most output a call is given. Zero on a model without a price.
 */
function callWorstCase(live: Live, model: string, bodyChars: number, messages: unknown): number {
  const usage = {
    inputTokens: inputWorstTokens(bodyChars, messages),
    outputTokens: CALL_OUTPUT_RESERVE_TOKENS,
  }
  return live.grant.price(model, usage) ?? 0
}

/**
 * The most input tokens a body may be billed: its characters at CHARS_PER_TOKEN, but an image's at
 * {@link IMAGE_WORST_TOKENS} whatever its bytes. The provider bills an image by its pixels after
 * scaling it down, not by its bytes: read as text, a 1 MB screenshot held some 340,000 tokens in
 * every later call of the conversation, and a tiny image of a large blank page far too few.
 */
function inputWorstTokens(bodyChars: number, messages: unknown): number {
  let chars = bodyChars
  let images = 0
  for (const { block } of sourcedBlocks(messages)) {
    const data = fieldOf(block.source, 'data')
    if (block.type !== 'image' || typeof data !== 'string') continue
    chars -= data.length
    images++
  }
  return Math.ceil(Math.max(0, chars) / CHARS_PER_TOKEN) + images * IMAGE_WORST_TOKENS
}

/**
 * The most one image is billed: about 1,600 tokens once scaled to the provider's standard size
 * (1.15 megapixels), four times that for the models that take images at a higher resolution.
 */
const IMAGE_WORST_TOKENS = 6_400

/** What the provider charges a web search: $10 per 1,000. */
export const WEB_SEARCH_USD = 0.01

/**
 * Records (or updates, for `entry`) one call's usage and web searches and checks the run's cap;
 * returns the record.
 */
function recordCall(
  live: Live,
  model: string,
  usage: TokenUsage,
  searches: number,
  entry?: CallRecord,
): CallRecord {
  const tokens = live.grant.price(model, usage)
  const costUsd = tokens === null ? null : round(tokens + searches * WEB_SEARCH_USD)
  const record = Object.assign(entry ?? { model }, { ...usage, costUsd })
  if (!entry) live.session.calls.push(record)
  const { cap } = live.grant
  const spent = (live.grant.spentBeforeUsd ?? 0) + pricedSpend(live)
  if (cap && spent > cap.usd && !live.refusal) {
    live.refusal = `Stopped: the run cost ${usd(spent)} after model call ${live.session.calls.length}, ${overCap(cap)}`
  }
  return record
}

/**
 * Passes server-sent events through unchanged while reading the usage they carry, recorded as it
 * passes rather than when the stream ends: a harness (or a command in its sandbox, which can call
 * the endpoint too) that drops the stream before its end still pays for what it read.
 * `message_start` has the input tokens; the output tokens come in one `message_delta` at the end,
 * so until then they are estimated from the text, thinking and tool input streamed so far (about
 * four characters a token). Once `stop()` says the run is over its cap the call is cut there, and
 * `onEnd` is called when the stream ends whichever way.
 *
 * Lines are read once each (lines.ts) and passed on whole: a line longer than
 * HARNESS_LINE_MAX_BYTES (a broken or hostile provider's) is not passed on; the call ends there
 * with an error event saying why, and the bytes of it read count as streamed output.
 */
function meteredStream(
  source: ReadableStream<Uint8Array>,
  record: (usage: TokenUsage, searches: number) => void,
  stop: () => boolean,
  onEnd: () => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader()
  const meter = createStreamUsage('anthropic')
  const report = (changed: boolean) => {
    if (changed) record(meter.usage(), meter.searches())
  }
  let ended = false
  let overLong = false
  /** The bytes of the line being read, passed on once it ends. */
  let held: Uint8Array[] = []
  const end = () => {
    if (ended) return
    ended = true
    onEnd()
  }
  const lines = lineReader({
    line: (text) => {
      report(meter.line(text))
      return false
    },
    overLong: (seen) => {
      overLong = true
      report(meter.overLong(seen))
      return true
    },
  })
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        // Reads on until something can be passed on: a pull that enqueues nothing is not called again.
        for (;;) {
          const { done, value } = await reader.read()
          if (done) {
            lines.end()
            for (const piece of held) controller.enqueue(piece)
            end()
            return controller.close()
          }
          lines.push(value)
          if (overLong) {
            end()
            await reader.cancel('a line of the event stream is too long')
            controller.enqueue(new TextEncoder().encode(LONG_LINE_EVENT))
            return controller.close()
          }
          const nl = value.lastIndexOf(NEWLINE)
          if (nl === -1) {
            held.push(value)
            continue
          }
          for (const piece of held) controller.enqueue(piece)
          controller.enqueue(value.subarray(0, nl + 1))
          held = nl + 1 < value.length ? [value.subarray(nl + 1)] : []
          if (stop()) {
            end()
            await reader.cancel('the run is over its cap')
            controller.close()
          }
          return
        }
      } catch (err) {
        end()
        controller.error(err)
      }
    },
    async cancel(reason) {
      end()
      await reader.cancel(reason)
    },
  })
}

const NEWLINE = 0x0a

/** Why a call whose event stream had an over-long line was ended (see {@link meteredStream}). */
export const LONG_LINE_ERROR =
  `The model provider sent a line longer than ${HARNESS_LINE_MAX_BYTES / 1024 / 1024} MiB in its answer, ` +
  'so Clockwork ended the call there'

/** The error event the call ends with; its first blank line drops any event half-read. */
const LONG_LINE_EVENT = `\nevent: error\ndata: ${JSON.stringify({
  type: 'error',
  error: { type: 'api_error', message: LONG_LINE_ERROR },
})}\n\n`
