import { describe, expect, it } from 'vitest'
import { estimateCostUsd, findPrice } from './pricing.ts'

const anthropic = (modelId: string) => ({ provider: 'anthropic' as const, modelId })

describe('run cost estimate', () => {
  it('prices known Anthropic models, with or without a date suffix', () => {
    expect(estimateCostUsd(anthropic('claude-sonnet-4-5'), { inputTokens: 1_000_000, outputTokens: 0 })).toBe(
      3,
    )
    expect(
      estimateCostUsd(anthropic('claude-sonnet-4-5-20250929'), { inputTokens: 1000, outputTokens: 2000 }),
    ).toBe(0.033)
    expect(findPrice(anthropic('claude-3-5-haiku-latest'))).toEqual({ input: 0.8, output: 4 })
  })

  it('prefers the longest matching model id', () => {
    expect(findPrice(anthropic('claude-opus-4-5-20251101'))).toEqual({ input: 5, output: 25 })
    expect(findPrice(anthropic('claude-opus-4-20250514'))).toEqual({ input: 15, output: 75 })
  })

  it('gives null, not a guess, for unknown models and OpenAI-compatible servers', () => {
    expect(estimateCostUsd(anthropic('claude-future-9'), { inputTokens: 10, outputTokens: 10 })).toBeNull()
    expect(findPrice(anthropic('claude-sonnet-45'))).toBeNull()
    expect(
      estimateCostUsd(
        { provider: 'openai-compatible', modelId: 'llama3' },
        { inputTokens: 10, outputTokens: 10 },
      ),
    ).toBeNull()
  })

  it('prices prompt-cache writes at 1.25 and reads at 0.1 of an input token', () => {
    // 1M input tokens of which 200k written to and 700k read from the cache; 100k uncached.
    const usd = estimateCostUsd(anthropic('claude-sonnet-4-5'), {
      inputTokens: 1_000_000,
      outputTokens: 0,
      cacheWriteTokens: 200_000,
      cacheReadTokens: 700_000,
    })
    expect(usd).toBeCloseTo((100_000 * 3 + 200_000 * 3 * 1.25 + 700_000 * 3 * 0.1) / 1e6, 6)
  })
})
