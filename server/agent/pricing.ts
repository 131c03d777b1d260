/**
 * Estimated cost of a model call from its token counts. Prices are USD per million tokens, from
 * Anthropic's public price list (checked 2026-11); a model not listed here (including every
 * OpenAI-compatible one: local models cost nothing we can know) gets a null cost, not a guess.
 */
import type { ModelChoice } from './model.ts'

type Rates = { input: number; output: number }
/** `long`: the rates of a request whose input is over {@link LONG_CONTEXT_TOKENS} (1M-context models). */
type Price = Rates & { long?: Rates }

// Keys are model ids without a date suffix; the longest matching prefix wins.
const ANTHROPIC_PRICES: Record<string, Price> = {
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-sonnet-4-5': { input: 3, output: 15, long: { input: 6, output: 22.5 } },
  'claude-sonnet-4': { input: 3, output: 15, long: { input: 6, output: 22.5 } },
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

/**
 * Anthropic's prompt-cache prices, as multiples of the input price: writes to the 5-minute cache
 * (the default lifetime), writes to the 1-hour cache (`ttl: "1h"`), and reads.
 */
export const CACHE_WRITE_FACTOR = 1.25
export const CACHE_WRITE_1H_FACTOR = 2
export const CACHE_READ_FACTOR = 0.1

/**
 * Input tokens of one request (cache reads and writes included) past which a model with a long
 * context bills the whole request, input and output, at its long-context rates.
 */
export const LONG_CONTEXT_TOKENS = 200_000

/**
 * One model call's token counts. `inputTokens` counts every input token; those of them written to
 * the prompt cache (`cacheWriteTokens`, of which `cacheWrite1hTokens` for an hour) or read from it
 * (`cacheReadTokens`) are priced at the cache's rates.
 */
export type CallTokens = {
  inputTokens: number
  outputTokens: number
  cacheReadTokens?: number
  cacheWriteTokens?: number
  cacheWrite1hTokens?: number
}

/**
 * USD for one model call, rounded to 6 decimals (the column's scale); null for unknown models.
 * Priced per call, never on a run's summed tokens: the long-context rates depend on one request's
 * input, so a run's calls are priced one by one and their costs added.
 */
export function estimateCostUsd(choice: ModelChoice, usage: CallTokens): number | null {
  const price = findPrice(choice)
  if (!price) return null
  const rates = price.long && usage.inputTokens > LONG_CONTEXT_TOKENS ? price.long : price
  const read = usage.cacheReadTokens ?? 0
  const written = usage.cacheWriteTokens ?? 0
  const writtenForAnHour = Math.min(written, usage.cacheWrite1hTokens ?? 0)
  const input =
    Math.max(0, usage.inputTokens - read - written) +
    (written - writtenForAnHour) * CACHE_WRITE_FACTOR +
    writtenForAnHour * CACHE_WRITE_1H_FACTOR +
    read * CACHE_READ_FACTOR
  const usd = (input * rates.input + usage.outputTokens * rates.output) / 1_000_000
  return Math.round(usd * 1e6) / 1e6
}
