/**
 * Anthropic models that are retired: requests to them fail. A deployment whose AGENT_MODEL (or a
 * `.env` copied before the default moved, decision 0458) still names one is told so at start-up
 * and on Settings → Models, with the replacement Anthropic recommends, instead of finding out from
 * every run's error. Checked against Anthropic's model deprecations page, 2026-12-05.
 */
import type { ModelChoice } from './model.ts'
import { undatedModelId } from './model-id.ts'

type Retirement = { on: string; replacement: string }

const RETIRED: Record<string, Retirement> = {
  'claude-sonnet-4-5': { on: '2026-11-30', replacement: 'claude-sonnet-5-5' },
  'claude-opus-4-1': { on: '2026-08-05', replacement: 'claude-opus-5-5' },
  'claude-sonnet-4': { on: '2026-06-15', replacement: 'claude-sonnet-5-5' },
  'claude-opus-4': { on: '2026-06-15', replacement: 'claude-opus-5-5' },
  'claude-3-7-sonnet': { on: '2026-02-19', replacement: 'claude-sonnet-5-5' },
}

/** When `choice` was retired and what replaces it, or null while it still answers (`now`). */
export function findRetirement(choice: ModelChoice, now = new Date()): Retirement | null {
  if (choice.provider !== 'anthropic') return null
  const retired = RETIRED[undatedModelId(choice.modelId)]
  return retired && now.toISOString().slice(0, 10) >= retired.on ? retired : null
}

/** The warning a retired model gets, naming the setting that fixes it. */
export function retiredModelWarning(choice: ModelChoice, now = new Date()): string | null {
  const retired = findRetirement(choice, now)
  if (!retired) return null
  return (
    `Anthropic retired ${choice.modelId} on ${retired.on}: every model call to it fails. ` +
    `Set AGENT_MODEL=anthropic:${retired.replacement} (its recommended replacement) in the server's .env and restart.`
  )
}
