/**
 * The command policy an environment (and an org) declares: glob patterns per decision, and what
 * happens to a command no pattern names. Patterns match one simple command at a time, written the
 * way a person types it (`npm *`, `git push *`, `rm -rf *`), after quotes are removed.
 */
import { z } from 'zod'

export const DECISIONS = ['allow', 'ask', 'deny'] as const
export type Decision = (typeof DECISIONS)[number]

/** deny > ask > allow: the strictest answer wins wherever answers meet. */
export const STRICTNESS: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 }

const Pattern = z
  .string()
  .trim()
  .min(1, 'a pattern must not be empty')
  .max(500, 'a pattern must be at most 500 characters')
  .describe('A glob matched against one simple command, e.g. "npm *" or "git push *"')

const Patterns = z.array(Pattern).max(200, 'at most 200 patterns per list').default([])

export const CommandPolicy = z
  .object({
    commands: z
      .object({
        allow: Patterns.describe('Commands that run without asking'),
        ask: Patterns.describe('Commands that need a person to approve them (denied in unattended runs)'),
        deny: Patterns.describe('Commands that never run'),
      })
      .strict()
      .default({ allow: [], ask: [], deny: [] }),
    default: z
      .enum(DECISIONS)
      .default('allow')
      .describe('What happens to a command no pattern names (the built-in denylist applies regardless)'),
  })
  .strict()
export type CommandPolicy = z.infer<typeof CommandPolicy>
export type CommandPolicyInput = z.input<typeof CommandPolicy>

/** Where a layer of a merged policy comes from; named in the rule of a decision it makes. */
export type PolicySource = 'org' | 'environment'

/**
 * An org policy over an environment policy. Each simple command gets the strictest answer of the
 * layers, so the environment can tighten but never loosen what the org decided (including the
 * org's default).
 */
export type MergedPolicy = { layers: { source: PolicySource; policy: CommandPolicy }[] }

export type EffectivePolicy = CommandPolicy | MergedPolicy

export type CommandDecision = {
  decision: Decision
  /** The simple command that decided, as matched (quotes removed). */
  command?: string
  /** What decided: `deny: rm -rf *`, `org ask: git push *`, `builtin:privilege`, `default`. */
  rule?: string
  /** A sentence for the transcript: why, and what to do instead. */
  reason?: string
}
