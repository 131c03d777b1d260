/**
 * The run's `<token>/mcp/<name>`: relays the harness's MCP requests to the servers the run may use,
 * adding their headers (secrets) here, outside the sandbox.
 */
import { hiddenHeaders, type McpEndpoint } from '../integrations/mcp-client.ts'
import { integrationStreamFetch } from '../lib/integration-fetch.ts'
import { makeStreamRedactor } from '../lib/redact.ts'
import { redactByteStream, type StreamRedactor } from '../lib/redact-stream.ts'
import { watchedResponse } from '../lib/watched-body.ts'
import { readBody } from './endpoint-request.ts'

/** Answers one request for the server named `name`. */
export type McpRelay = (name: string, request: Request) => Promise<Response>

const MCP_REQUEST_HEADERS = [
  'content-type',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]
const MCP_RESPONSE_HEADERS = ['content-type', 'mcp-session-id', 'mcp-protocol-version']
const SESSION_HEADER = 'mcp-session-id'
/** Session ids remembered per server: a run holds a few sessions, a server that mints more is odd. */
const MAX_SESSIONS_PER_SERVER = 16
/**
 * Requests relayed to one server open at once, per run: its event stream and a few calls. Each
 * holds a connection to the server until its answer ends, and a command in the sandbox could
 * otherwise open thousands (a GET stream lasts as long as the server keeps it).
 */
export const MAX_RELAYED_OPEN_PER_SERVER = 8

/** Remembers `given` under its hidden form `shown` for server `name`, forgetting the oldest past the cap. */
function remember(sessions: Map<string, Map<string, string>>, name: string, shown: string, given: string) {
  let known = sessions.get(name)
  if (!known) sessions.set(name, (known = new Map()))
  known.delete(shown)
  known.set(shown, given)
  if (known.size > MAX_SESSIONS_PER_SERVER) known.delete(known.keys().next().value!)
}

/**
 * The relay to `servers` (by name), whose upstream requests end with `signal` (the run's). The
 * answer streams back with the server's header values hidden as it passes (decision 0446), and in
 * the response headers passed on (decision 0450): the CLI and any command in the sandbox see the
 * placeholders a member's chat sees (decision 0426).
 */
export function createMcpRelay(servers: Map<string, McpEndpoint>, signal: AbortSignal): McpRelay {
  // Per server, what hides its header values in its answers, compiled at its first answer.
  const hides = new Map<string, () => StreamRedactor>()
  // Per server, the session ids it gave that the sandbox saw hidden, by their hidden form: sent
  // back as shown, they reach the server whole (a session id that echoes a token still works).
  const sessions = new Map<string, Map<string, string>>()
  // Per server, the requests relayed whose answers have not ended.
  const open = new Map<string, number>()
  const hidesOf = (name: string, endpoint: McpEndpoint) => {
    let hide = hides.get(name)
    if (!hide) hides.set(name, (hide = makeStreamRedactor(hiddenHeaders(endpoint.headers))))
    return hide
  }
  return async (name, request) => {
    const endpoint = servers.get(name)
    if (!endpoint) return Response.json({ error: `No MCP server named ${name} in this run` }, { status: 404 })
    const opened = open.get(name) ?? 0
    if (opened >= MAX_RELAYED_OPEN_PER_SERVER)
      return Response.json(
        { error: `MCP server ${name} has ${MAX_RELAYED_OPEN_PER_SERVER} requests open for this run already` },
        { status: 429, headers: { 'retry-after': '1' } },
      )
    open.set(name, opened + 1)
    const release = () => open.set(name, open.get(name)! - 1)
    try {
      // The slot is the server's until its answer ends, is cancelled or fails (watchedResponse).
      return watchedResponse(await relay(name, endpoint, request), { onDone: release })
    } catch (err) {
      release()
      throw err
    }
  }

  async function relay(name: string, endpoint: McpEndpoint, request: Request): Promise<Response> {
    const headers = new Headers(endpoint.headers)
    for (const header of MCP_REQUEST_HEADERS) {
      const value = request.headers.get(header)
      if (value) headers.set(header, value)
    }
    const shownSession = request.headers.get(SESSION_HEADER)
    const givenSession = shownSession && sessions.get(name)?.get(shownSession)
    if (givenSession) headers.set(SESSION_HEADER, givenSession)
    const body = ['GET', 'HEAD'].includes(request.method) ? undefined : await readBody(request)
    if (body instanceof Response) return body
    const fetcher = integrationStreamFetch({ adminRegistered: endpoint.adminRegistered, timeoutMs: 60_000 })
    try {
      const upstream = await fetcher(endpoint.url, { method: request.method, headers, body, signal })
      // No Content-Length: a hidden value changes the body's length, so it goes chunked. The headers
      // passed on are hidden as the body is (decision 0450): a session id can echo the token too.
      const hide = hidesOf(name, endpoint)
      const out = new Headers()
      for (const header of MCP_RESPONSE_HEADERS) {
        const value = upstream.headers.get(header)
        if (!value) continue
        const redactor = hide()
        const shown = redactor.push(value) + redactor.end()
        out.set(header, shown)
        if (header === SESSION_HEADER && shown !== value) remember(sessions, name, shown, value)
      }
      const answer = upstream.body && redactByteStream(upstream.body, hide())
      return new Response(answer, { status: upstream.status, headers: out })
    } catch (err) {
      // Hidden too: the error can quote what the server sent, such as where it redirected to.
      const redactor = hidesOf(name, endpoint)()
      const reason = redactor.push((err as Error).message) + redactor.end()
      return Response.json({ error: `MCP server ${name} could not be reached: ${reason}` }, { status: 502 })
    }
  }
}
