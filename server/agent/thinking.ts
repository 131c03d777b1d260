/**
 * The model's notes between tool calls ("Let me check the feed first…"). Anthropic's newer models
 * (Sonnet 5.5, Opus 5.5, Fable 5.1 and others that think adaptively) return that text as thinking
 * blocks whose text is empty unless the request asks to show it, so a run's transcript and a chat
 * would show tool calls and the answer with nothing between them (decision 0460). The request asks
 * for `display: 'updates'`: the notes between tool calls, not the full reasoning.
 */
import type { AnthropicProviderOptions } from '@ai-sdk/anthropic'
import type { LanguageModel } from 'ai'
import { undatedModelId } from './pricing.ts'

/**
 * The first version of each family that takes `thinking: { type: 'adaptive' }`. Older ones (Sonnet
 * 4.5, Haiku 4.5, Opus 4.5 and before) refuse it, so they are asked for no thinking at all.
 */
const ADAPTIVE_SINCE: Record<string, number> = { opus: 4.06, sonnet: 4.06, fable: 5, mythos: 5, haiku: 5.05 }

/** `claude-<family>-<major>[-<minor>]`, after a dated snapshot's suffix is dropped. */
const VERSIONED = /^claude-(fable|mythos|opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?$/

/** Whether an Anthropic model id takes adaptive thinking (and so can show its notes). */
export function takesAdaptiveThinking(modelId: string): boolean {
  const match = VERSIONED.exec(undatedModelId(modelId))
  if (!match) return false
  const [, family, major, minor = '0'] = match
  return Number(major) + Number(minor) / 100 >= ADAPTIVE_SINCE[family!]!
}

/** What a model is asked for so it returns its notes; nothing for a model that cannot. */
export function notesOptions(model: LanguageModel) {
  if (typeof model === 'string' || !model.provider.startsWith('anthropic')) return undefined
  if (!takesAdaptiveThinking(model.modelId)) return undefined
  const thinking: AnthropicProviderOptions['thinking'] = { type: 'adaptive', display: 'updates' }
  return { anthropic: { thinking } }
}
