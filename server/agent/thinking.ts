/**
 * The model's notes between tool calls ("Let me check the feed first…"). Anthropic's newer models
 * (Sonnet 5.5, Opus 5.5, Fable 5.1 and Mythos 5.1, and their successors) return that text as thinking
 * blocks whose text is empty unless the request asks to show it, so a run's transcript and a chat
 * would show tool calls and the answer with nothing between them (decision 0460). The request asks
 * for `display: 'updates'`: the notes between tool calls, not the full reasoning.
 */
import type { AnthropicProviderOptions } from '@ai-sdk/anthropic'
import type { LanguageModel } from 'ai'
import { parseClaudeModelId, type ClaudeFamily } from './model-id.ts'

/**
 * The first version of each family that returns its notes as thinking blocks: Sonnet and Opus 5.5,
 * Fable and Mythos 5.1. Earlier ones write their notes as text, and asking them for adaptive
 * thinking would change how they work (4.6 to 5 would think, and bill it) or fail (4.5 and before
 * refuse it), so they are asked for nothing. Haiku 5.5's notes are text, as far as its page says.
 */
const NOTES_AS_THINKING_SINCE: Partial<Record<ClaudeFamily, number>> = {
  opus: 5.05,
  sonnet: 5.05,
  fable: 5.01,
  mythos: 5.01,
}

/** Whether an Anthropic model id returns its notes between tool calls as thinking blocks. */
export function hidesNotesAsThinking(modelId: string): boolean {
  const id = parseClaudeModelId(modelId)
  if (!id) return false
  const since = NOTES_AS_THINKING_SINCE[id.family]
  return since !== undefined && id.major + (id.minor ?? 0) / 100 >= since
}

/** What a model is asked for so it returns its notes; nothing for a model that cannot. */
export function notesOptions(model: LanguageModel) {
  if (typeof model === 'string' || !model.provider.startsWith('anthropic')) return undefined
  if (!hidesNotesAsThinking(model.modelId)) return undefined
  const thinking: AnthropicProviderOptions['thinking'] = { type: 'adaptive', display: 'updates' }
  return { anthropic: { thinking } }
}
