/**
 * `/_agent-native/mcp`: Clockwork as an MCP server over streamable HTTP (the official SDK's
 * server side), for a person's own agent. Stateless: every request carries its personal access
 * token, which is checked (and counted against the token's rate limit) before anything else, and
 * gets a server built for that token's caller and scopes. So a revoked token is refused from its
 * very next request, on every instance, and no instance holds sessions another cannot serve.
 * Answers are plain JSON (no event stream): every tool answers once. A client whose tokens were
 * refused too often is answered 429 before its token is even looked up (tokens/guess-limit.ts).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { authRateLimited, CLIENT_IP_HEADER } from '../auth/auth.ts'
import { env } from '../env.ts'
import { HttpError, toErrorBody, unauthorized } from '../lib/errors.ts'
import { jsonKeyProblems } from '../lib/json-keys.ts'
import { checkAccessToken, type AccessTokenScope } from '../tokens/access-tokens.ts'
import { countRefusedToken, waitForTokens } from '../tokens/guess-limit.ts'
import { buildMcpServer } from './server.ts'
import { asCallToolResult, MCP_TOOLS, toolArgumentsFailure } from './tools.ts'

export const MCP_SERVER_VERSION = '0.1.0'

const jsonError = (err: HttpError, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(toErrorBody(err)), {
    status: err.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  })

const BEARER = /^Bearer\s+(\S+)\s*$/i

/**
 * Answers one MCP request. `readBody` reads it within the body limit (the route passes the HTTP
 * layer's reader), and only once the token has been accepted.
 */
export async function handleMcpRequest(request: Request, readBody: () => Promise<string>): Promise<Response> {
  const given = BEARER.exec(request.headers.get('authorization') ?? '')?.[1]
  const challenge = { 'www-authenticate': 'Bearer realm="clockwork"' }
  if (!given) {
    return jsonError(
      unauthorized('Send a personal access token: Authorization: Bearer cwp_… (Settings → Access tokens)'),
      challenge,
    )
  }
  // Refused tokens are limited per client (decision 0417): one over the limit is answered here,
  // before its token is hashed or looked up. The server entry sets the address header itself.
  const limiting = authRateLimited()
  const address = request.headers.get(CLIENT_IP_HEADER) ?? 'unknown'
  const waiting = limiting ? waitForTokens(address) : null
  if (waiting !== null) return tooManyRefused(waiting)
  const check = await checkAccessToken(given, env().MCP_RATE_LIMIT_PER_MINUTE)
  if (!check.ok && check.reason === 'invalid') {
    const wait = limiting ? await countRefusedToken(address) : null
    if (wait !== null) return tooManyRefused(wait)
    return jsonError(
      unauthorized('This access token is not valid (unknown, revoked, or its owner left)'),
      challenge,
    )
  }
  if (!check.ok) {
    const limit = env().MCP_RATE_LIMIT_PER_MINUTE
    return jsonError(
      new HttpError(
        429,
        'rate_limited',
        `This token has made its ${limit} requests this minute; try again shortly`,
      ),
      { 'retry-after': String(check.retryAfterSeconds) },
    )
  }
  // Stateless: no stream for server-initiated messages and no session to end.
  if (request.method !== 'POST') {
    return new Response(null, { status: 405, headers: { allow: 'POST', 'cache-control': 'no-store' } })
  }
  let text: string
  let body: unknown
  try {
    text = await readBody()
    body = JSON.parse(text)
  } catch (err) {
    if (err instanceof HttpError) return jsonError(err)
    return jsonRpcError(null, -32700, 'Parse error: the body must be JSON', 400)
  }
  // The rate limit counts requests: a batch (up to 100 messages in the SDK) would make one request
  // worth a hundred tool calls. The protocol dropped batches in 2025-06-18 (decision 0360).
  if (Array.isArray(body)) {
    return jsonRpcError(
      null,
      -32600,
      'Invalid Request: batches are not accepted; send one JSON-RPC message per request',
      400,
    )
  }
  const refusal =
    badKeysRefusal(text, body) ??
    responseRefusal(body) ??
    paramsRefusal(body) ??
    toolCallRefusal(body, check.scopes)
  if (refusal) return refusal

  const server = buildMcpServer(check, MCP_SERVER_VERSION)
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  try {
    await server.connect(transport)
    return await transport.handleRequest(request, { parsedBody: body })
  } finally {
    // With JSON answers the response is whole by now.
    await server.close()
  }
}

const tooManyRefused = (seconds: number) =>
  jsonError(
    new HttpError(
      429,
      'rate_limited',
      `Too many refused access tokens from your address; try again in ${seconds} s`,
    ),
    { 'retry-after': String(seconds) },
  )

function jsonRpcError(id: unknown, code: number, message: string, status = 200): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  })
}

/**
 * A response (`result` or `error`, no `method`): this server sends no requests (it is stateless and
 * answers in plain JSON), so it is an answer to nothing. The SDK wrote such an answer into an error
 * for an unknown id with JSON.stringify, which overflowed the stack on one nested deep, and told the
 * client "RangeError: Maximum call stack size exceeded" (decision 0470).
 */
function responseRefusal(body: unknown): Response | null {
  if (!body || typeof body !== 'object' || 'method' in body) return null
  if (!('result' in body) && !('error' in body)) return null
  return jsonRpcError(
    null,
    -32600,
    'Invalid Request: this server sends no requests, so it takes no responses',
    400,
  )
}

/** The requests Clockwork's server answers, each with the SDK's own schema of its params. */
const REQUEST_SCHEMAS: Record<string, { safeParse: (value: unknown) => ParseOutcome }> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema,
}
type ParseOutcome =
  { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }

const NO_TASKS =
  'params.task: this server does not run requests as tasks (it declares no tasks capability); ' +
  'send the request without task and it is answered when done'

/**
 * A request whose params do not have its method's shape, answered as invalid params (-32602)
 * naming every bad one. The SDK would check them itself, but answer "internal error" (-32603)
 * with the schema's issues as JSON. A request as a task (MCP's tasks extension, `params.task`) is
 * one: the server declares no tasks capability, and the SDK refused it as an internal error in its
 * own words, "Server does not support task creation" (decision 0470, amended).
 */
function paramsRefusal(body: unknown): Response | null {
  if (!body || typeof body !== 'object') return null
  const message = body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown }
  if (message.jsonrpc !== '2.0' || !(typeof message.id === 'string' || typeof message.id === 'number'))
    return null
  if (typeof message.method !== 'string' || !Object.hasOwn(REQUEST_SCHEMAS, message.method)) return null
  const asTask = isObject(message.params) && Object.hasOwn(message.params, 'task')
  const parsed = REQUEST_SCHEMAS[message.method]!.safeParse(body)
  const issues = parsed.success ? [] : parsed.error.issues
  const problems = [
    ...(asTask ? [NO_TASKS] : []),
    // The task's own shape is beside the point when no task is run.
    ...issues
      .filter((issue) => !(asTask && issue.path[0] === 'params' && issue.path[1] === 'task'))
      .map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`),
  ]
  if (problems.length === 0) return null
  return jsonRpcError(message.id, -32602, `Invalid params: ${[...new Set(problems)].join('; ')}`)
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null

/**
 * A message that gives a key twice in one object (decision 0475), or a key named `__proto__`,
 * `constructor` or `prototype` or too long (decision 0478). `JSON.parse` keeps the last of a
 * repeated key, so `create_job` with `"scope":"personal","scope":"shared"` made a shared job while a
 * log or a reviewer of the call read personal; zod dropped a `__proto__` key unsaid. Keys inside `params` are invalid params (-32602) naming each
 * by its path; a key of the message itself (`id`, `method`) makes it an invalid request (-32600,
 * 400, as a batch is), answered to no id, since the id may be the key given twice.
 */
function badKeysRefusal(text: string, body: unknown): Response | null {
  const found = jsonKeyProblems(text)
  if (found.length === 0) return null
  const problems = found.map((p) => p.message).join('; ')
  const id = (body as { id?: unknown } | null)?.id
  const inParams = found.every(({ path }) => path.startsWith('params.'))
  if (inParams && (typeof id === 'string' || typeof id === 'number'))
    return jsonRpcError(id, -32602, `Invalid params: ${problems}`)
  return jsonRpcError(null, -32600, `Invalid Request: ${problems}`, 400)
}

/** A well-formed `tools/call` request: its id, the tool's name and the arguments as sent. */
function toolCallOf(body: unknown): { id: string | number; name: string; args: unknown } | null {
  if (!body || typeof body !== 'object') return null
  const message = body as {
    jsonrpc?: unknown
    id?: unknown
    method?: unknown
    params?: { name?: unknown; arguments?: unknown }
  }
  // Only a well-formed request is answered here; anything else goes to the SDK, which refuses it.
  if (message.jsonrpc !== '2.0' || !(typeof message.id === 'string' || typeof message.id === 'number'))
    return null
  if (message.method !== 'tools/call' || typeof message.params?.name !== 'string') return null
  return { id: message.id, name: message.params.name, args: message.params.arguments }
}

/**
 * A call of one of Clockwork's tools that the token's scopes do not cover, answered as a tool
 * error that says which scope it needs (the server would only say "not found", since such a tool
 * is not listed); or one whose arguments the tool does not take, answered as the API's 400 naming
 * each (decision 0535), before anything runs.
 */
function toolCallRefusal(body: unknown, scopes: readonly AccessTokenScope[]): Response | null {
  const call = toolCallOf(body)
  const spec = call && Object.hasOwn(MCP_TOOLS, call.name) ? MCP_TOOLS[call.name] : undefined
  if (!call || !spec) return null
  if (!scopes.includes(spec.scope)) {
    const text =
      `forbidden: ${call.name} needs the ${spec.scope} scope, and this token has ` +
      `${scopes.join(', ')}. Make a token with that scope under Settings → Access tokens.`
    return toolAnswer(call.id, { content: [{ type: 'text', text }], isError: true })
  }
  const failure = toolArgumentsFailure(call.name, call.args)
  return failure ? toolAnswer(call.id, asCallToolResult(failure)) : null
}

const toolAnswer = (id: string | number, result: object) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), {
    status: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  })
