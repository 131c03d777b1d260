import { describe, expect, it } from 'vitest'
import { findPrice } from '../agent/pricing.ts'
import { describePrice } from './settings-models.ts'

const priceOf = (modelId: string) => findPrice({ provider: 'anthropic', modelId })!

describe('the Models page states the price', () => {
  it('with the long-context rates where the model has some', () => {
    expect(describePrice(priceOf('claude-sonnet-4-5'))).toBe(
      '$3 / $15 per million input / output tokens; $6 / $22.5 for a call over 200,000 input tokens',
    )
  })

  it('with its cache reads where they cost less than a tenth of the input price', () => {
    expect(describePrice(priceOf('claude-sonnet-5-5'))).toBe(
      '$2 / $10 per million input / output tokens; $0.1 for cache reads',
    )
    expect(describePrice(priceOf('claude-haiku-5-5'))).toBe(
      '$0.1 / $0.5 per million input / output tokens; $0.5 / $2.5 for a call over 100,000 input tokens',
    )
  })

  it("and says when it is a newer model's family stand-in, over-counted", () => {
    expect(describePrice(priceOf('claude-opus-4-6'))).toBe('$5 / $25 per million input / output tokens')
    expect(describePrice(priceOf('claude-opus-6'))).toMatch(
      /^\$15 \/ \$75 per million .*\(not in the price list yet: its family’s highest price, so costs are over-counted\)$/,
    )
  })
})
