/**
 * The organisation's layer over every environment (Settings → Agent): its extra deny patterns and
 * the runtimes it refuses become an org policy merged above the environment's (mergePolicies), so
 * a member's definition can tighten it but never loosen it; its limits are ceilings (the built-in
 * defaults where it sets none), which also fill in what a definition leaves unset. Exec switched
 * off refuses every command with a reason.
 */
import type { ExecRuntime, OrgSettings } from '../../accounts/org-settings-schema.ts'
import { deploymentCeilings } from '../../lib/deployment-exec-limits.ts'
import { HttpError } from '../../lib/errors.ts'
import { DEFAULT_LIMITS, type ExecLimits } from '../exec/exec-schema.ts'
import type { EnvironmentDefinition } from './definition.ts'
import { mergePolicies, type MergedPolicy } from '../policy/policy.ts'

/** The commands each runtime starts; an org that refuses the runtime denies them all. */
export const RUNTIME_COMMANDS: Record<ExecRuntime, string[]> = {
  node: ['node *', 'nodejs *', 'npm *', 'npx *', 'corepack *', 'yarn *', 'pnpm *'],
  python: ['python *', 'python3 *', 'python3.* *', 'pip *', 'pip3 *', 'pipx *'],
}

export type OrgExec = Pick<OrgSettings, 'exec' | 'execRuntimes' | 'execLimits' | 'execDeny'>

/** The environment's policy under the org's: denies of refused runtimes and the org's patterns. */
export function effectivePolicy(org: OrgExec, definition: EnvironmentDefinition): MergedPolicy {
  const refused = (Object.keys(RUNTIME_COMMANDS) as ExecRuntime[]).filter(
    (r) => !org.execRuntimes.includes(r),
  )
  const deny = [...org.execDeny, ...refused.flatMap((r) => RUNTIME_COMMANDS[r])]
  const env = { commands: definition.policy.commands, default: definition.policy.default }
  return mergePolicies(
    deny.length ? { commands: { allow: [], ask: [], deny }, default: 'allow' } : undefined,
    env,
  )
}

/**
 * Limits of a command: the definition's, each clamped to the org's ceiling (its setting, else the
 * built-in default, and never above the deployment's); a limit the definition leaves unset is the ceiling. Clamped here, at use,
 * rather than refused when the definition is saved: an admin may lower a ceiling later, and the
 * definitions written before must then run within it, not above it.
 */
export function effectiveLimits(org: OrgExec, definition: EnvironmentDefinition): ExecLimits {
  const ceiling: ExecLimits = { ...DEFAULT_LIMITS, ...org.execLimits }
  // The deployment's ceilings bind the org's own (decision 0482): its owner may be anyone.
  for (const { key, max } of deploymentCeilings()) ceiling[key] = Math.min(ceiling[key], max)
  const limits = { ...ceiling }
  for (const key of Object.keys(ceiling) as (keyof ExecLimits)[]) {
    limits[key] = Math.min(definition.limits[key] ?? ceiling[key], ceiling[key])
  }
  return limits
}

/** @throws HttpError 403 when the organisation switched commands off. */
export function assertExecAllowed(org: OrgExec) {
  if (!org.exec) {
    throw new HttpError(
      403,
      'exec_disabled',
      'Commands are switched off for this organisation (an owner or admin can turn them on under Settings → Agent)',
    )
  }
}
