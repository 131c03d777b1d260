/**
 * A model call that has the provider search the web, as the run's endpoint reads it. The harness's
 * `WebSearch` runs its query as a call of its own after the policy hook allowed (and audited) the
 * query; a command in the sandbox holding the run's token can send such a call itself. Only a call
 * of the harness's own shape, for a query the hook allowed, passes unjudged: one message naming the
 * query, under the harness's own system text. Anything else is judged and audited with all the
 * text that tells the model what to search for.
 */
import { contentParts, fieldOf, typeOf } from './message-blocks.ts'

/** Whether the call offers the provider's web search tool. */
export function asksForSearch(fields: Record<string, unknown>): boolean {
  const tools = Array.isArray(fields.tools) ? (fields.tools as unknown[]) : []
  return tools.some((tool) => typeOf(tool)?.startsWith('web_search') ?? false)
}

/**
 * Claude Code's system text for its search call (2.1.x, read from what it sends): its billing line
 * aside, only these. A wording it changes costs a second audit entry per search, never a search.
 */
const HARNESS_SEARCH_SYSTEM = new Set([
  "You are a Claude agent, built on Anthropic's Claude Agent SDK.",
  "You are Claude Code, Anthropic's official CLI for Claude.",
  'You run a web search for another Claude model, which is waiting on the result and can search again. Search once, then reply with a brief summary of the results.',
])
const BILLING_LINE = 'x-anthropic-billing-header:'

/**
 * The one message of a call shaped as the harness's own search (its system text, one user message
 * of one text, the search tool alone), or null for any other call.
 */
export function harnessSearchMessage(fields: Record<string, unknown>): string | null {
  const tools = Array.isArray(fields.tools) ? (fields.tools as unknown[]) : []
  if (!tools.every((tool) => typeOf(tool)?.startsWith('web_search') ?? false)) return null
  const system = systemTexts(fields.system)
  if (system === null || !system.every((t) => t.startsWith(BILLING_LINE) || HARNESS_SEARCH_SYSTEM.has(t)))
    return null
  const messages = Array.isArray(fields.messages) ? (fields.messages as unknown[]) : []
  if (messages.length !== 1) return null
  const only = messages[0] as { role?: unknown; content?: unknown } | null
  if (!only || only.role !== 'user') return null
  if (typeof only.content === 'string') return only.content
  const blocks = Array.isArray(only.content) ? (only.content as unknown[]) : []
  if (blocks.length !== 1 || typeOf(blocks[0]) !== 'text') return null
  const text = (blocks[0] as { text?: unknown }).text
  return typeof text === 'string' ? text : null
}

/**
 * All the text that tells the model what to search for: the system text but the billing line, and
 * every message's text (strings, text blocks, text documents, text inside tool results), in order.
 */
export function instructingText(fields: Record<string, unknown>): string {
  const texts = (systemTexts(fields.system) ?? []).filter((t) => !t.startsWith(BILLING_LINE))
  for (const { text, block } of contentParts(fields.messages)) {
    if (text !== undefined) texts.push(text)
    else if (typeof block.text === 'string') texts.push(block.text)
    else if (fieldOf(block.source, 'type') === 'text' && typeof fieldOf(block.source, 'data') === 'string')
      texts.push(fieldOf(block.source, 'data') as string)
  }
  return texts.join('\n')
}

/** The system field's texts (a string, or text blocks), or null when it holds anything else. */
function systemTexts(system: unknown): string[] | null {
  if (system === undefined) return []
  if (typeof system === 'string') return [system]
  if (!Array.isArray(system)) return null
  const texts: string[] = []
  for (const block of system) {
    const text = fieldOf(block, 'text')
    if (typeOf(block) !== 'text' || typeof text !== 'string') return null
    texts.push(text)
  }
  return texts
}
