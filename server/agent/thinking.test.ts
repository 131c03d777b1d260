import { describe, expect, it } from 'vitest'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { notesOptions, hidesNotesAsThinking } from './thinking.ts'

describe('which models are asked to show their notes', () => {
  it('asks the models that hide their notes: Sonnet and Opus from 5.5, Fable and Mythos from 5.1', () => {
    for (const id of [
      'claude-sonnet-5-5',
      'claude-sonnet-5-5-20261101',
      'claude-opus-5-5',
      'claude-fable-5-1',
      'claude-fable-5-2',
      'claude-mythos-5-1',
      'claude-opus-6',
      'claude-sonnet-5-5-latest',
    ])
      expect(hidesNotesAsThinking(id), id).toBe(true)
  })

  it('leaves the models that write their notes as text, and unknown names, alone', () => {
    for (const id of [
      // Adaptive thinking would turn thinking on (and bill it) for these, not show their notes.
      'claude-opus-5',
      'claude-sonnet-5',
      'claude-fable-5',
      'claude-mythos-5',
      'claude-haiku-5-5',
      'claude-sonnet-4-6',
      'claude-opus-4-6-20260205',
      // These refuse adaptive thinking.
      'claude-sonnet-4-5',
      'claude-sonnet-4-5-20250929',
      'claude-haiku-4-5',
      'claude-opus-4-5',
      'claude-opus-4-1',
      'claude-sonnet-4-20250514',
      'claude-3-7-sonnet',
      'claude-haiku-5',
      'gpt-5',
    ])
      expect(hidesNotesAsThinking(id), id).toBe(false)
  })

  it('asks an Anthropic model for its notes between tool calls, never another provider', () => {
    const anthropic = createAnthropic({ apiKey: 'sk-ant-test' })
    expect(notesOptions(anthropic('claude-sonnet-5-5'))).toEqual({
      anthropic: { thinking: { type: 'adaptive', display: 'updates' } },
    })
    expect(notesOptions(anthropic('claude-sonnet-4-5'))).toBeUndefined()
    const compatible = createOpenAICompatible({ name: 'local', baseURL: 'http://127.0.0.1:1/v1' })
    expect(notesOptions(compatible('claude-sonnet-5-5'))).toBeUndefined()
  })
})
