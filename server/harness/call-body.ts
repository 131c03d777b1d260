/**
 * What the run's endpoint reads in a model call's body (`/v1/messages` and
 * `/v1/messages/count_tokens`) before the provider does: the body as an object, redacted, and why
 * it would have the provider reach past the run's sandbox or bill above the price table.
 */
import { apiError, parseJson, readBody } from './endpoint-request.ts'
import { contentParts, fieldOf, typeOf } from './message-blocks.ts'

/**
 * A call's body as an object, with the environment's secrets hidden by `redact` (the harness's
 * commands see them; what they print must not reach the provider), and its length as read; or
 * the answer refusing it (too large, too deep, not JSON, not an object).
 */
export async function readCallFields(
  request: Request,
  redact: (text: string) => string,
): Promise<{ fields: Record<string, unknown>; chars: number } | Response> {
  const raw = await readBody(request)
  if (typeof raw !== 'string') return raw
  const parsed = parseJson(redact(raw), 'The request body')
  if (parsed instanceof Response) return parsed
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return apiError(400, 'invalid_request_error', 'The request body must be a JSON object')
  }
  return { fields: parsed as Record<string, unknown>, chars: raw.length }
}

/**
 * Why a call would reach past the run's sandbox through the provider's own servers, or null. The
 * provider can connect to MCP servers and fetch pages or run code for a call; a harness's tools
 * are its own (run in the sandbox, under the policy), and its web search is audited by the policy
 * hook (or by the endpoint, which judges a search call it did not hear of). A command in the sandbox calling the endpoint directly
 * must not get more.
 */
export function reachesOutside(fields: Record<string, unknown>): string | null {
  if ('mcp_servers' in fields) return 'mcp_servers: the provider may not connect to MCP servers for a run'
  if ('container' in fields) return 'container: the provider may not run code for a run'
  const tools = Array.isArray(fields.tools) ? (fields.tools as unknown[]) : []
  for (const [i, tool] of tools.entries()) {
    const type = typeOf(tool)
    if (type !== undefined && PROVIDER_TOOLS.test(type)) {
      return `tools.${i}: the provider may not ${type.startsWith('web_fetch') ? 'fetch pages' : 'run code'} for a run (${type})`
    }
  }
  return fetchedSource(fields.messages)
}

/**
 * Sources of an image or document the call carries itself; any other (`url`, `file`, and kinds the
 * API adds later) has the provider fetch or look up something: a `url` source is a GET from the
 * provider's servers to any address, so a command with no network sent what it read to any host
 * (`?d=<secret>`), with no beta to withhold.
 */
const CARRIED_SOURCES = new Set(['base64', 'text'])

/** The first block (in a message, or in a tool result in one) whose source is not carried, as "path: why". */
function fetchedSource(messages: unknown): string | null {
  for (const { path, block } of sourcedBlocks(messages)) {
    const type = typeof block.source === 'object' ? fieldOf(block.source, 'type') : block.source
    if (typeof type === 'string' && CARRIED_SOURCES.has(type)) continue
    return `${path}.source: the provider may not fetch a file for a run (source ${JSON.stringify(type ?? null)}); send its bytes (base64) instead`
  }
  return null
}

/** Every block with a `source` (an image, a document), in a message or a tool result in one. */
export const sourcedBlocks = (messages: unknown) =>
  contentParts(messages).flatMap(({ path, block }) => (block && 'source' in block ? [{ path, block }] : []))

/**
 * Why a call asks for service the provider bills above the price table's rates, or null: fast mode
 * (`speed`) and inference kept in one country (`inference_geo`) multiply every token's price, and
 * the usage they report looks like any other call's, so a command in the sandbox could spend past
 * the run's cap and the organisation's budget at a multiple of what they count.
 */
export function billedAbovePrice(fields: Record<string, unknown>): string | null {
  if ('speed' in fields && fields.speed !== 'standard') {
    return 'speed: fast mode is billed above the prices Clockwork counts a run at; leave speed out'
  }
  if ('inference_geo' in fields && fields.inference_geo !== 'global') {
    return 'inference_geo: inference kept in one country is billed above the prices Clockwork counts a run at; leave inference_geo out'
  }
  return null
}

/** Tools the provider runs itself that reach out or run code (web search stays: judged and audited, search-call.ts). */
const PROVIDER_TOOLS = /^(web_fetch|code_execution)_/
