import { describe, expect, it } from 'vitest'
import { findRetirement, retiredModelWarning } from './retired-models.ts'

const anthropic = (modelId: string) => ({ provider: 'anthropic' as const, modelId })
const day = (iso: string) => new Date(`${iso}T12:00:00Z`)

describe('retired models', () => {
  it('names a retired model, dated snapshots included, from its retirement day on', () => {
    expect(findRetirement(anthropic('claude-sonnet-4-5'), day('2026-11-29'))).toBeNull()
    expect(findRetirement(anthropic('claude-sonnet-4-5-20250929'), day('2026-11-30'))).toEqual({
      on: '2026-11-30',
      replacement: 'claude-sonnet-5-5',
    })
    expect(retiredModelWarning(anthropic('claude-sonnet-4-5'), day('2026-12-05'))).toBe(
      'Anthropic retired claude-sonnet-4-5 on 2026-11-30: every model call to it fails. ' +
        "Set AGENT_MODEL=anthropic:claude-sonnet-5-5 (its recommended replacement) in the server's .env and restart.",
    )
  })

  it('leaves current models, and other providers, alone', () => {
    expect(retiredModelWarning(anthropic('claude-sonnet-5-5'), day('2026-12-05'))).toBeNull()
    expect(retiredModelWarning(anthropic('claude-sonnet-4-6'), day('2026-12-05'))).toBeNull()
    expect(
      retiredModelWarning({ provider: 'openai-compatible', modelId: 'claude-sonnet-4-5' }, day('2026-12-05')),
    ).toBeNull()
  })
})
