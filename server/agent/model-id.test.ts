import { describe, expect, it } from 'vitest'
import { parseClaudeModelId, undatedModelId } from './model-id.ts'

describe('Anthropic model ids', () => {
  it('reads the family and version of the ids Anthropic names, dated snapshots and -latest included', () => {
    const cases = {
      'claude-sonnet-5-5': { family: 'sonnet', major: 5, minor: 5, dated: false, familyFirst: true },
      'claude-opus-4-1-20250805': { family: 'opus', major: 4, minor: 1, dated: true, familyFirst: true },
      'claude-haiku-5-5': { family: 'haiku', major: 5, minor: 5, dated: false, familyFirst: true },
      'claude-fable-5-2': { family: 'fable', major: 5, minor: 2, dated: false, familyFirst: true },
      'claude-mythos-5-1': { family: 'mythos', major: 5, minor: 1, dated: false, familyFirst: true },
      'claude-opus-4-20250514': { family: 'opus', major: 4, minor: null, dated: true, familyFirst: true },
      'claude-opus-6': { family: 'opus', major: 6, minor: null, dated: false, familyFirst: true },
      'claude-sonnet-5-5-latest': { family: 'sonnet', major: 5, minor: 5, dated: false, familyFirst: true },
      // Claude 3 was named version first.
      'claude-3-7-sonnet-20250219': { family: 'sonnet', major: 3, minor: 7, dated: true, familyFirst: false },
      'claude-3-5-haiku-latest': { family: 'haiku', major: 3, minor: 5, dated: false, familyFirst: false },
      'claude-3-opus-20240229': { family: 'opus', major: 3, minor: null, dated: true, familyFirst: false },
    }
    for (const [id, expected] of Object.entries(cases)) expect(parseClaudeModelId(id), id).toEqual(expected)
  })

  it('reads nothing else as a Claude model', () => {
    for (const id of [
      // The provider is split off AGENT_MODEL before an id is read (readModelChoice).
      'anthropic:claude-sonnet-5-5',
      'gpt-5',
      'claude-future-9',
      'claude-sonnet',
      // A two-digit major is a mistyped major and minor, not Sonnet 45.
      'claude-sonnet-45',
      'claude-sonnet-5-100',
      'claude-5-5-sonnet',
      'claude-sonnet-5-5-2026110',
      'claude-sonnet-5-5-beta',
    ])
      expect(parseClaudeModelId(id), id).toBeNull()
  })

  it('drops a snapshot date or -latest to give the id a list names', () => {
    expect(undatedModelId('claude-opus-4-6-20260205')).toBe('claude-opus-4-6')
    expect(undatedModelId('claude-3-5-haiku-latest')).toBe('claude-3-5-haiku')
    expect(undatedModelId('claude-sonnet-5-5')).toBe('claude-sonnet-5-5')
    expect(undatedModelId('gpt-5')).toBe('gpt-5')
  })
})
