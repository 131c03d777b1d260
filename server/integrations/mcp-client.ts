/**
 * Talking to one MCP server over streamable HTTP with the official SDK client, every request
 * through the integrations' outbound guard. Each call opens a short session (initialize, one
 * request, close): registrations change rarely, calls are few, and nothing stays open between
 * turns. A session is bounded whatever the server answers (mcp-session-bounds.ts, decision 0517).
 * Tool lists are cached for {@link TOOL_LIST_TTL_MS} per server version; every failure comes back
 * as an {@link McpFailure} with a message a person (or the model) can act on. Whatever the server
 * says (tools, results, errors) comes back with its header values hidden ({@link headerRedactor},
 * decision 0426): a server may echo its request headers.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {
  ErrorCode,
  ListToolsResultSchema,
  McpError,
  type Tool as SdkTool,
} from '@modelcontextprotocol/sdk/types.js'
import { integrationStreamFetch } from '../lib/integration-fetch.ts'
import { BoundedCache } from '../lib/lru.ts'
import { OutboundRefused } from '../lib/outbound.ts'
import { makeRedactor, MIN_SECRET_LENGTH, redactData, withJsonForm, type Hidden } from '../lib/redact.ts'
import type { McpStatus } from './mcp-schema.ts'
import { McpSessionBound, McpSessionBounds } from './mcp-session-bounds.ts'

/** How long a server's tool list is reused before it is listed again. */
export const TOOL_LIST_TTL_MS = 60_000
/** Connecting and listing tools: a server slower than this is reported as timed out. */
const CONNECT_TIMEOUT_MS = 10_000
/** One tool call. */
const CALL_TIMEOUT_MS = 60_000
/** A tool's text result is cut here so one call cannot flood the model's context. */
const MAX_RESULT_CHARS = 50_000
/**
 * A server's tools: every one goes into every model request of a conversation, and a listing is
 * kept for a minute. A server offering more is refused whole (its status says why), not cut to
 * an arbitrary part.
 */
export const MAX_TOOLS_PER_SERVER = 128
/** What a listing session (initialize and every page) may receive, in bytes. */
export const MAX_LISTING_BYTES = 256 * 1024
/** What a tool call's session may receive, in bytes: its text is cut at 50,000 characters anyway. */
export const MAX_CALL_BYTES = 1024 * 1024
/** Listings kept: at most {@link MAX_LISTING_BYTES} of answers each, 32 MiB together. */
const MAX_LISTINGS_CACHED = 128

/** Where and how to reach a server, with its header secrets already resolved. */
export type McpEndpoint = {
  /** Cache key: the server's id and version (updatedAt), so an edit is seen at once. */
  key: string
  name: string
  url: string
  headers: Record<string, string>
  adminRegistered: boolean
}

export type McpFailureKind = 'unreachable' | 'auth' | 'timeout' | 'refused' | 'protocol' | 'config'

/** A call to an MCP server failed; `message` names the server and what went wrong. */
export class McpFailure extends Error {
  override name = 'McpFailure'
  constructor(
    readonly kind: McpFailureKind,
    message: string,
  ) {
    super(message)
  }
}

/** The outbound rule's refusal of a server, in the words both saving and "Test connection" use. */
export const refusedMessage = (server: string, reason: string) =>
  `MCP server ${server} refused by the outbound rule: ${reason}`

/** Turns whatever the SDK or the network threw into a readable {@link McpFailure}. */
export function describeMcpError(server: string, err: unknown): McpFailure {
  if (err instanceof McpFailure) return err
  if (err instanceof McpSessionBound) return new McpFailure('refused', err.message)
  const cause = (err as { cause?: unknown })?.cause
  if (err instanceof OutboundRefused || cause instanceof OutboundRefused)
    return new McpFailure('refused', refusedMessage(server, (err as Error).message))
  if (err instanceof StreamableHTTPError && (err.code === 401 || err.code === 403))
    return new McpFailure(
      'auth',
      `MCP server ${server} rejected the credentials (HTTP ${err.code}); check its headers`,
    )
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
    return new McpFailure('timeout', `MCP server ${server} did not answer in time`)
  const text = err instanceof Error ? err.message : String(err)
  if (/timed out|timeout|aborted/i.test(text))
    return new McpFailure('timeout', `MCP server ${server} did not answer in time`)
  if (/\b401\b|\b403\b|unauthori[sz]ed|forbidden/i.test(text))
    return new McpFailure(
      'auth',
      `MCP server ${server} rejected the credentials (${text}); check its headers`,
    )
  const code = (err as { code?: string })?.code ?? (cause as { code?: string })?.code
  if (code && /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|ENETUNREACH)$/.test(code))
    return new McpFailure('unreachable', `MCP server ${server} is unreachable (${code})`)
  if (err instanceof McpError || err instanceof StreamableHTTPError)
    return new McpFailure('protocol', `MCP server ${server} answered with an error: ${text}`)
  return new McpFailure('unreachable', `MCP server ${server} could not be reached: ${text}`)
}

// A credential after its scheme, which a server may echo alone.
const AUTH_SCHEME = /^(?:bearer|basic|token)\s+(\S.*)$/i

/**
 * The server's header values as what hides them in whatever it answers: each value, a credential
 * after `Bearer `, `Basic ` or `Token `, and both as they read inside a JSON string show as
 * `[redacted header <Name>]`. A value shorter than {@link MIN_SECRET_LENGTH} is no credential
 * (`X-Api-Version: 2`) and is left alone: hiding it would shred the answer.
 */
export function hiddenHeaders(headers: Record<string, string>): Hidden[] {
  return Object.entries(headers).flatMap(([name, value]) => {
    const forms = [value, AUTH_SCHEME.exec(value)?.[1] ?? ''].filter((f) => f.length >= MIN_SECRET_LENGTH)
    const shown = `[redacted header ${name}]`
    return forms.flatMap(withJsonForm).map((f) => ({ value: f, shown }))
  })
}

/** Hides the server's header values ({@link hiddenHeaders}) in `text`. */
export const headerRedactor = (headers: Record<string, string>) => makeRedactor(hiddenHeaders(headers))

/** One session with the server, within `maxBytes` and the other bounds of mcp-session-bounds.ts. */
async function withClient<T>(
  endpoint: McpEndpoint,
  maxBytes: number,
  work: (client: Client, redact: (text: string) => string) => Promise<T>,
): Promise<T> {
  const redact = headerRedactor(endpoint.headers)
  const bounds = new McpSessionBounds(endpoint.name, maxBytes)
  const guarded = integrationStreamFetch({
    adminRegistered: endpoint.adminRegistered,
    timeoutMs: CONNECT_TIMEOUT_MS,
    maxBytes,
  })
  const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), {
    requestInit: { headers: endpoint.headers },
    fetch: bounds.fetch(guarded),
  })
  const client = new Client({ name: 'clockwork', version: '1.0.0' })
  try {
    await client.connect(bounds.transport(transport), { timeout: CONNECT_TIMEOUT_MS })
    return await work(client, redact)
  } catch (err) {
    // A bound crossed ends the session: whatever the SDK then threw (a closed connection) is its echo.
    const failure = describeMcpError(endpoint.name, bounds.crossed ?? err)
    throw new McpFailure(failure.kind, redact(failure.message))
  } finally {
    await client.close().catch(() => {})
  }
}

/** What a conversation uses of a tool: the rest (output schema, annotations, icons) is not kept. */
export type McpTool = Pick<SdkTool, 'name' | 'title' | 'description' | 'inputSchema'>

type Listing = { tools: McpTool[]; at: number }
const listings = new BoundedCache<string, Listing>(MAX_LISTINGS_CACHED, TOOL_LIST_TTL_MS)
// The last outcome per server for the settings page (kept longer than the tool list).
const statuses = new BoundedCache<string, McpStatus>(2000)

/** The server's tools, from the cache when listed in the last minute. */
export async function listMcpTools(
  endpoint: McpEndpoint,
  options: { fresh?: boolean } = {},
): Promise<McpTool[]> {
  const cached = options.fresh ? undefined : listings.get(endpoint.key)
  if (cached) return cached.tools
  try {
    const tools = await withClient(endpoint, MAX_LISTING_BYTES, async (client, redact) => {
      const all: McpTool[] = []
      let cursor: string | undefined
      // A few pages at most: a server offering hundreds of tools would drown the model anyway.
      for (let page = 0; page < 5; page++) {
        // Not client.listTools(): it compiles a validator for every output schema, and a call is
        // another session, which never uses them.
        const res = await client.request(
          { method: 'tools/list', params: cursor ? { cursor } : {} },
          ListToolsResultSchema,
          { timeout: CONNECT_TIMEOUT_MS },
        )
        all.push(
          ...res.tools.map(({ name, title, description, inputSchema }) => ({
            name,
            title,
            description,
            inputSchema,
          })),
        )
        if (all.length > MAX_TOOLS_PER_SERVER)
          throw new McpFailure(
            'refused',
            `MCP server ${endpoint.name} offers more than ${MAX_TOOLS_PER_SERVER} tools, the most one server may offer`,
          )
        cursor = res.nextCursor
        if (!cursor) break
      }
      // The name stays as the server spells it: a call must name it (mcp-tools.ts shows it redacted).
      return all.map((tool) => ({ ...redactData(tool, redact), name: tool.name }))
    })
    listings.set(endpoint.key, { tools, at: Date.now() })
    statuses.set(endpoint.key, { state: 'ok', tools: tools.length, checkedAt: new Date().toISOString() })
    return tools
  } catch (err) {
    const failure = describeMcpError(endpoint.name, err)
    statuses.set(endpoint.key, {
      state: 'error',
      message: failure.message,
      checkedAt: new Date().toISOString(),
    })
    throw failure
  }
}

/** Records a failure found before any request (e.g. a missing header secret) as the server's status. */
export function noteMcpFailure(key: string, failure: McpFailure): void {
  statuses.set(key, { state: 'error', message: failure.message, checkedAt: new Date().toISOString() })
}

/** The last known status of a server on this instance (`unknown` until it is listed or tested). */
export function mcpStatus(key: string): McpStatus {
  return statuses.get(key) ?? { state: 'unknown' }
}

/** What a tool call gives the model: the server's text, and whether the tool itself reported an error. */
export type McpCallResult = { isError: boolean; text: string; structured?: unknown }

/** `text` within {@link MAX_RESULT_CHARS}, saying where it was cut. */
const cut = (text: string) =>
  text.length > MAX_RESULT_CHARS
    ? `${text.slice(0, MAX_RESULT_CHARS)}\n[cut at ${MAX_RESULT_CHARS} characters]`
    : text

/**
 * The structured content as the model and the chat thread get it: redacted, and only when its JSON
 * is within {@link MAX_RESULT_CHARS} like the text (cut JSON would be no structure at all), else a
 * line saying it was left out.
 */
function structuredPart(content: unknown, redact: (text: string) => string) {
  if (!content) return {}
  const structured: unknown = redactData(content, redact)
  const size = JSON.stringify(structured).length
  if (size <= MAX_RESULT_CHARS) return { structured }
  return { note: `[structured content of ${size} characters left out: more than ${MAX_RESULT_CHARS}]` }
}

/** Calls one tool; the server's own tool errors come back with `isError`, transport failures throw. */
export async function callMcpTool(
  endpoint: McpEndpoint,
  tool: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<McpCallResult> {
  return withClient(endpoint, MAX_CALL_BYTES, async (client, redact) => {
    const res = await client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: CALL_TIMEOUT_MS,
      signal,
    })
    const parts = Array.isArray(res.content) ? (res.content as { type: string; text?: string }[]) : []
    // Redacted before the cut, so a value at the cut is hidden whole.
    const text = redact(
      parts.map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type} content omitted]`)).join('\n'),
    )
    const { structured, note } = structuredPart(res.structuredContent, redact)
    return {
      isError: res.isError === true,
      text: note ? `${cut(text)}\n${note}` : cut(text),
      ...(structured === undefined ? {} : { structured }),
    }
  })
}
