import { describe, expect, it } from 'vitest'
import { estimateCostUsd, findPrice } from './pricing.ts'

const anthropic = (modelId: string) => ({ provider: 'anthropic' as const, modelId })

describe('run cost estimate', () => {
  it('prices known Anthropic models, with or without a date suffix', () => {
    expect(estimateCostUsd(anthropic('claude-sonnet-4-5'), { inputTokens: 100_000, outputTokens: 0 })).toBe(
      0.3,
    )
    expect(
      estimateCostUsd(anthropic('claude-sonnet-4-5-20250929'), { inputTokens: 1000, outputTokens: 2000 }),
    ).toBe(0.033)
    expect(findPrice(anthropic('claude-3-5-haiku-latest'))).toEqual({ input: 0.8, output: 4 })
  })

  it('prices each listed model as its own, never as an older one whose id it starts with', () => {
    expect(findPrice(anthropic('claude-opus-4-5-20251101'))).toEqual({ input: 5, output: 25 })
    expect(findPrice(anthropic('claude-opus-4-20250514'))).toEqual({ input: 15, output: 75 })
    expect(findPrice(anthropic('claude-opus-4-1'))).toEqual({ input: 15, output: 75 })
    // Opus 4.6 costs a third of Opus 4: priced as claude-opus-4 (a prefix of it), a run on it was
    // stopped by a $1 cap after 33 cents of real spending, and its usage showed three times the bill.
    expect(findPrice(anthropic('claude-opus-4-6'))).toEqual({ input: 5, output: 25 })
    expect(findPrice(anthropic('claude-opus-4-6-20260205'))).toEqual({ input: 5, output: 25 })
    expect(
      estimateCostUsd(anthropic('claude-opus-4-6'), { inputTokens: 100_000, outputTokens: 10_000 }),
    ).toBe(0.75)
    expect(findPrice(anthropic('claude-sonnet-4-6'))).toEqual({ input: 3, output: 15 })
    expect(findPrice(anthropic('claude-sonnet-5-5'))).toMatchObject({ input: 2, output: 10 })
    expect(findPrice(anthropic('claude-opus-5-5'))).toMatchObject({ input: 4, output: 20 })
    expect(findPrice(anthropic('claude-fable-5-2'))).toMatchObject({ input: 8, output: 40 })
    expect(findPrice(anthropic('claude-haiku-5-5'))).toMatchObject({ input: 0.1, output: 0.5 })
  })

  it("prices a newer model of a known family at the family's dearest listed price, marked so", () => {
    expect(findPrice(anthropic('claude-opus-6'))).toEqual({ input: 15, output: 75, familyCeiling: true })
    expect(findPrice(anthropic('claude-haiku-5-7-20261201'))).toEqual({
      input: 1,
      output: 5,
      familyCeiling: true,
    })
    // Fable 5.1 and 5.2 read their cache for a quarter of what Fable 5 does: the stand-in takes
    // the dearer reads, so it never under-counts a newer Fable whose reads are not known yet.
    expect(findPrice(anthropic('claude-fable-6'))).toEqual({ input: 10, output: 50, familyCeiling: true })
    expect(findPrice(anthropic('claude-mythos-6'))).toEqual({ input: 10, output: 50, familyCeiling: true })
    expect(findPrice(anthropic('claude-sonnet-4-9'))).toMatchObject({
      input: 3,
      output: 15,
      familyCeiling: true,
    })
  })

  it('gives null, not a guess, for unknown models and OpenAI-compatible servers', () => {
    expect(estimateCostUsd(anthropic('claude-future-9'), { inputTokens: 10, outputTokens: 10 })).toBeNull()
    expect(findPrice(anthropic('claude-sonnet-45'))).toBeNull()
    // Named version first, as Claude 1 to 3 were: an unlisted one is no newer model of the family.
    expect(findPrice(anthropic('claude-3-9-opus'))).toBeNull()
    expect(
      estimateCostUsd(
        { provider: 'openai-compatible', modelId: 'llama3' },
        { inputTokens: 10, outputTokens: 10 },
      ),
    ).toBeNull()
  })

  it('prices prompt-cache writes at 1.25 (an hour’s at 2) and reads at 0.1 of an input token', () => {
    // 100k input tokens of which 20k written to the cache (5k of them for an hour) and 70k read.
    const usd = estimateCostUsd(anthropic('claude-sonnet-4-5'), {
      inputTokens: 100_000,
      outputTokens: 0,
      cacheWriteTokens: 20_000,
      cacheWrite1hTokens: 5_000,
      cacheReadTokens: 70_000,
    })
    expect(usd).toBeCloseTo((10_000 * 3 + 15_000 * 3 * 1.25 + 5_000 * 3 * 2 + 70_000 * 3 * 0.1) / 1e6, 6)
  })

  it('prices a call over 200,000 input tokens, cache included, at the long-context rates where there are some', () => {
    const sonnet = anthropic('claude-sonnet-4-5')
    expect(estimateCostUsd(sonnet, { inputTokens: 200_000, outputTokens: 1_000 })).toBe(0.615)
    expect(estimateCostUsd(sonnet, { inputTokens: 200_001, outputTokens: 1_000 })).toBe(1.222506)
    expect(
      estimateCostUsd(sonnet, { inputTokens: 250_000, outputTokens: 0, cacheReadTokens: 100_000 }),
    ).toBeCloseTo((150_000 * 6 + 100_000 * 6 * 0.1) / 1e6, 6)
    // A model without a long context has one price whatever the size.
    expect(estimateCostUsd(anthropic('claude-haiku-4-5'), { inputTokens: 300_000, outputTokens: 0 })).toBe(
      0.3,
    )
  })
  it('prices a Haiku 5.5 call over 100,000 input tokens, cache included, at five times every rate', () => {
    const haiku = anthropic('claude-haiku-5-5')
    expect(estimateCostUsd(haiku, { inputTokens: 100_000, outputTokens: 10_000 })).toBe(0.015)
    expect(estimateCostUsd(haiku, { inputTokens: 100_001, outputTokens: 10_000 })).toBe(0.075001)
    expect(
      estimateCostUsd(haiku, { inputTokens: 150_000, outputTokens: 0, cacheReadTokens: 120_000 }),
    ).toBeCloseTo((30_000 * 0.5 + 120_000 * 0.5 * 0.1) / 1e6, 6)
  })

  it('prices cache reads at the rate of the model where it is not a tenth of the input price', () => {
    const read = (modelId: string) =>
      estimateCostUsd(anthropic(modelId), {
        inputTokens: 1_000_000,
        outputTokens: 0,
        cacheReadTokens: 1_000_000,
      })
    expect(read('claude-sonnet-5-5')).toBe(0.1)
    expect(read('claude-opus-5-5')).toBe(0.2)
    expect(read('claude-fable-5-1')).toBe(0.25)
    expect(read('claude-fable-5-2-20261109')).toBe(0.2)
    expect(read('claude-fable-5')).toBe(1)
    expect(read('claude-sonnet-5')).toBe(0.2)
  })
})
