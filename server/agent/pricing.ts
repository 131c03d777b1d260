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

/** USD for the given token counts, rounded to 6 decimals (the column's scale); null for unknown models. */
export function estimateCostUsd(
  choice: ModelChoice,
  usage: { inputTokens: number; outputTokens: number },
): number | null {
  const price = findPrice(choice)
  if (!price) return null
  const usd = (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000
  return Math.round(usd * 1e6) / 1e6
}
