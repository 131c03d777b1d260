/**
 * Estimated cost of a model call from its token counts. Prices are USD per million tokens, from
 * Anthropic's public price list (checked 2026-11); a model not listed here (including every
 * OpenAI-compatible one: local models cost nothing we can know) gets a null cost, not a guess.
 */
import type { ModelChoice } from './model.ts'

type Rates = { input: number; output: number }
/**
 * `long`: the rates of a request whose input is over {@link LONG_CONTEXT_TOKENS} (1M-context models).
 * `familyCeiling`: the model is not in the list, and this is the dearest listed model of its family.
 */
export type Price = Rates & { long?: Rates; familyCeiling?: true }

// Model ids as the API names them, without a date suffix (checked 2026-12-05 against Anthropic's
// model pages, platform.claude.com/docs/en/models). A dated snapshot of a listed id takes its price;
// nothing else does: `claude-opus-4` is not `claude-opus-4-6`, which costs a third as much.
const ANTHROPIC_PRICES: Record<string, Price> = {
  'claude-fable-5-1': { input: 10, output: 50 },
  'claude-fable-5': { input: 10, output: 50 },
  'claude-opus-5-5': { input: 4, output: 20 },
  'claude-opus-5': { input: 5, output: 25 },
  'claude-opus-4-8': { input: 5, output: 25 },
  'claude-opus-4-7': { input: 5, output: 25 },
  'claude-opus-4-6': { input: 5, output: 25 },
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-sonnet-5-5': { input: 2, output: 10 },
  'claude-sonnet-5': { input: 2, output: 10 },
  'claude-sonnet-4-6': { input: 3, output: 15 },
  'claude-sonnet-4-5': { input: 3, output: 15, long: { input: 6, output: 22.5 } },
  'claude-sonnet-4': { input: 3, output: 15, long: { input: 6, output: 22.5 } },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
}

/** A listed id, or one of its dated snapshots (`claude-opus-4-6-20260205`). */
const SNAPSHOT = /^(.*?)(?:-\d{8})?$/
/** A model of a known family in Anthropic's naming (`claude-opus-6`, `claude-sonnet-5-7`). */
const FAMILY = /^claude-(fable|opus|sonnet|haiku)-\d(?:-\d{1,2})?$/

/** The dearest listed model of each family: the price of a newer one not listed yet. */
const FAMILY_CEILINGS = new Map<string, Price>()
for (const [id, price] of Object.entries(ANTHROPIC_PRICES)) {
  const family = FAMILY.exec(id)?.[1]
  const known = family && FAMILY_CEILINGS.get(family)
  if (family && (!known || price.output > known.output)) FAMILY_CEILINGS.set(family, price)
}

/**
 * The price of `choice`, or null when unknown. A model of a known family that is not listed yet
 * (released after this list) is priced at its family's dearest listed model, marked
 * `familyCeiling`: a cap or a budget then stops it early, never late (decision 0451). Anything
 * else (an unknown name, an OpenAI-compatible server) gets null, not a guess.
 */
export function findPrice(choice: ModelChoice): Price | null {
  if (choice.provider !== 'anthropic') return null
  const id = SNAPSHOT.exec(choice.modelId.replace(/-latest$/, ''))![1]!
  const listed = ANTHROPIC_PRICES[id]
  if (listed) return listed
  const family = FAMILY.exec(id)?.[1]
  const ceiling = family ? FAMILY_CEILINGS.get(family) : undefined
  return ceiling ? { ...ceiling, familyCeiling: true } : null
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
