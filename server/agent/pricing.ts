/**
 * Estimated cost of a model call from its token counts. Prices are USD per million tokens, from
 * Anthropic's public price list (checked 2026-12-05); a model not listed here (including every
 * OpenAI-compatible one: local models cost nothing we can know) gets a null cost, not a guess.
 */
import type { ModelChoice } from './model.ts'
import { parseClaudeModelId, undatedModelId } from './model-id.ts'

type Rates = { input: number; output: number }
/**
 * `cacheRead`: what reading a cached input token costs, as a multiple of the input price, where it
 * is not {@link CACHE_READ_FACTOR} (the newest models read their cache for less).
 * `long`: the rates of a call whose input (cache reads and writes included) is over `over` tokens;
 * every token of such a call is priced at them, output included.
 * `familyCeiling`: the model is not in the list, and this is the dearest listed model of its family.
 */
export type Price = Rates & { cacheRead?: number; long?: Rates & { over: number }; familyCeiling?: true }

/**
 * Anthropic's prompt-cache prices, as multiples of the input price: writes to the 5-minute cache
 * (the default lifetime), writes to the 1-hour cache (`ttl: "1h"`), and reads (unless a model's
 * price says otherwise, {@link Price.cacheRead}).
 */
export const CACHE_WRITE_FACTOR = 1.25
export const CACHE_WRITE_1H_FACTOR = 2
export const CACHE_READ_FACTOR = 0.1

/** Sonnet 4 and 4.5 with the 1M-token context: double input, 1.5 times output past 200,000. */
const SONNET_4_LONG = { input: 6, output: 22.5, over: 200_000 }

// Model ids as the API names them, without a date suffix (checked 2026-12-05 against Anthropic's
// price list, platform.claude.com/docs/en/about-claude/pricing, and its model pages). A dated
// snapshot of a listed id takes its price; nothing else does: `claude-opus-4` is not
// `claude-opus-4-6`, which costs a third as much. Retired models stay, for the runs that used them.
const ANTHROPIC_PRICES: Record<string, Price> = {
  'claude-fable-5-2': { input: 8, output: 40, cacheRead: 0.025 },
  'claude-fable-5-1': { input: 10, output: 50, cacheRead: 0.025 },
  'claude-fable-5': { input: 10, output: 50 },
  'claude-mythos-5-2': { input: 8, output: 40, cacheRead: 0.025 },
  'claude-mythos-5-1': { input: 10, output: 50, cacheRead: 0.025 },
  'claude-mythos-5': { input: 10, output: 50 },
  'claude-opus-5-5': { input: 4, output: 20, cacheRead: 0.05 },
  'claude-opus-5': { input: 5, output: 25 },
  'claude-opus-4-8': { input: 5, output: 25 },
  'claude-opus-4-7': { input: 5, output: 25 },
  'claude-opus-4-6': { input: 5, output: 25 },
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
  // Sonnet 5.5 reads its cache at 0.05 of the input price since 2026-10-07 (0.1 before).
  'claude-sonnet-5-5': { input: 2, output: 10, cacheRead: 0.05 },
  'claude-sonnet-5': { input: 2, output: 10 },
  'claude-sonnet-4-6': { input: 3, output: 15 },
  'claude-sonnet-4-5': { input: 3, output: 15, long: SONNET_4_LONG },
  'claude-sonnet-4': { input: 3, output: 15, long: SONNET_4_LONG },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  // Haiku 5.5 is priced by the size of each call: five times every rate past 100,000 input tokens.
  'claude-haiku-5-5': { input: 0.1, output: 0.5, long: { input: 0.5, output: 2.5, over: 100_000 } },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
}

/**
 * The family of a model named as today's are (`claude-opus-6`, `claude-sonnet-5-7`). The older
 * names (`claude-3-7-sonnet`) came before this list, so an unlisted one is no newer model.
 */
const familyOf = (modelId: string) => {
  const id = parseClaudeModelId(modelId)
  return id?.familyFirst ? id.family : undefined
}

/** What a price's cache reads cost, as a multiple of its input price. */
const cacheReadFactor = (price: Price) => price.cacheRead ?? CACHE_READ_FACTOR

/**
 * The dearest listed model of each family: the price of a newer one not listed yet. Dearest by
 * output, then by what its cache reads cost, so the stand-in never under-counts either.
 */
const FAMILY_CEILINGS = new Map<string, Price>()
for (const [id, price] of Object.entries(ANTHROPIC_PRICES)) {
  const family = familyOf(id)
  const known = family && FAMILY_CEILINGS.get(family)
  const dearer =
    !known ||
    price.output > known.output ||
    (price.output === known.output && cacheReadFactor(price) > cacheReadFactor(known))
  if (family && dearer) FAMILY_CEILINGS.set(family, price)
}

/**
 * The price of `choice`, or null when unknown. A model of a known family that is not listed yet
 * (released after this list) is priced at its family's dearest listed model, marked
 * `familyCeiling`: a cap or a budget then stops it early, never late (decision 0451). Anything
 * else (an unknown name, an OpenAI-compatible server) gets null, not a guess.
 */
export function findPrice(choice: ModelChoice): Price | null {
  if (choice.provider !== 'anthropic') return null
  const listed = ANTHROPIC_PRICES[undatedModelId(choice.modelId)]
  if (listed) return listed
  const family = familyOf(choice.modelId)
  const ceiling = family ? FAMILY_CEILINGS.get(family) : undefined
  return ceiling ? { ...ceiling, familyCeiling: true } : null
}

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
 * Priced per call, never on a run's summed tokens: the long-context rates depend on one call's
 * input, so a run's calls are priced one by one and their costs added.
 */
export function estimateCostUsd(choice: ModelChoice, usage: CallTokens): number | null {
  const price = findPrice(choice)
  if (!price) return null
  const rates = price.long && usage.inputTokens > price.long.over ? price.long : price
  const read = usage.cacheReadTokens ?? 0
  const written = usage.cacheWriteTokens ?? 0
  const writtenForAnHour = Math.min(written, usage.cacheWrite1hTokens ?? 0)
  const input =
    Math.max(0, usage.inputTokens - read - written) +
    (written - writtenForAnHour) * CACHE_WRITE_FACTOR +
    writtenForAnHour * CACHE_WRITE_1H_FACTOR +
    read * cacheReadFactor(price)
  const usd = (input * rates.input + usage.outputTokens * rates.output) / 1_000_000
  return Math.round(usd * 1e6) / 1e6
}
