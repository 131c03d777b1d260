/**
 * Picks the language model for runs from the environment, read at call time: AGENT_MODEL
 * (`anthropic:MODEL` or `openai-compatible:MODEL`) with ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL
 * or OPENAI_COMPATIBLE_BASE_URL / OPENAI_COMPATIBLE_API_KEY. Per-user and per-org keys come
 * with the agent issue.
 */
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import { env, type Env } from '../env.ts'
import { RunFailure } from '../runs/executor.ts'

/** What a person must do to make runs work, shown as the run's error. */
export const NO_MODEL_KEY_MESSAGE =
  'No model key is configured, so the agent cannot run. Set ANTHROPIC_API_KEY in .env ' +
  '(and ANTHROPIC_BASE_URL if you use a proxy), or use an OpenAI-compatible server by setting ' +
  'AGENT_MODEL=openai-compatible:<model> and OPENAI_COMPATIBLE_BASE_URL (plus OPENAI_COMPATIBLE_API_KEY ' +
  'if it needs one); then restart Clockwork.'

/** The configured model; throws a {@link RunFailure} saying how to configure one when none is. */
export function resolveModel(config: Env = env()): LanguageModel {
  const [provider, ...rest] = config.AGENT_MODEL.split(':')
  const modelId = rest.join(':')
  if (provider === 'openai-compatible') {
    if (!config.OPENAI_COMPATIBLE_BASE_URL) throw new RunFailure(NO_MODEL_KEY_MESSAGE)
    return createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: config.OPENAI_COMPATIBLE_BASE_URL,
      apiKey: config.OPENAI_COMPATIBLE_API_KEY,
    }).chatModel(modelId)
  }
  if (!config.ANTHROPIC_API_KEY) throw new RunFailure(NO_MODEL_KEY_MESSAGE)
  // The provider appends `/messages`, so a base URL ends in `/v1` (as ANTHROPIC_BASE_URL does here).
  return createAnthropic({ apiKey: config.ANTHROPIC_API_KEY, baseURL: config.ANTHROPIC_BASE_URL })(modelId)
}
