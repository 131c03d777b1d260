/**
 * Estimated cost of a run from its token counts. Prices are USD per million tokens, from
 * Anthropic's public price list (checked 2026-11); a model not listed here (including every
 * OpenAI-compatible one: local models cost nothing we can know) gets a null cost, not a guess.
 */
import type { ModelChoice } from './model.ts'

type Price = { input: number; output: number }

// Keys are model ids without a date suffix; the longest matching prefix wins.
const ANTHROPIC_PRICES: Record<string, Price> = {
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
}

/** The price of `choice`, or null when unknown. */
export function findPrice(choice: ModelChoice): Price | null {
  if (choice.provider !== 'anthropic') return null
  const id = choice.modelId.replace(/-latest$/, '')
  const match = Object.keys(ANTHROPIC_PRICES)
    .filter((prefix) => id === prefix || id.startsWith(`${prefix}-`))
    .sort((a, b) => b.length - a.length)[0]
  return match ? ANTHROPIC_PRICES[match]! : null
}

/** Anthropic's prompt-cache prices, as multiples of the input price: writes (5-minute cache) and reads. */
export const CACHE_WRITE_FACTOR = 1.25
export const CACHE_READ_FACTOR = 0.1

/**
 * USD for the given token counts, rounded to 6 decimals (the column's scale); null for unknown
 * models. `inputTokens` counts every input token; those of them written to or read from the prompt
 * cache (`cacheWriteTokens`, `cacheReadTokens`) are priced at the cache's rates.
 */
export function estimateCostUsd(
  choice: ModelChoice,
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number },
): number | null {
  const price = findPrice(choice)
  if (!price) return null
  const read = usage.cacheReadTokens ?? 0
  const written = usage.cacheWriteTokens ?? 0
  const input =
    Math.max(0, usage.inputTokens - read - written) + written * CACHE_WRITE_FACTOR + read * CACHE_READ_FACTOR
  const usd = (input * price.input + usage.outputTokens * price.output) / 1_000_000
  return Math.round(usd * 1e6) / 1e6
}
