/**
 * The command policy: may this command line run here? `decideCommand` parses the line (unbash),
 * judges every simple command the shell could run, and answers with the strictest verdict:
 * the built-in denylist first (no setting removes it), then the built-in "at least ask" rules
 * (computed command names, code piped into a shell, inline `-c`/`-e` code, eval), then each policy
 * layer's patterns (deny > ask > allow > the layer's default).
 *
 * A line that does not parse is denied, not asked: a partial tree may hide a command nobody saw,
 * and asking a person to approve it would make them the parser. The agent is told to fix the syntax.
 */
import picomatch from 'picomatch'
import {
  type CommandDecision,
  CommandPolicy,
  type CommandPolicyInput,
  type Decision,
  type EffectivePolicy,
  type MergedPolicy,
  type PolicySource,
  STRICTNESS,
} from './policy-schema.ts'
import { type Check, collectChecks, ParseFailure } from './policy-walk.ts'

export { CommandPolicy } from './policy-schema.ts'
export type { CommandDecision, Decision, EffectivePolicy, MergedPolicy } from './policy-schema.ts'

/** Longest command line judged; longer ones are refused rather than parsed. */
export const MAX_COMMAND_LINE = 64 * 1024

/** The policy an environment gets when it declares none: the built-in rules, everything else runs. */
export const DEFAULT_POLICY: CommandPolicy = CommandPolicy.parse({})

/** Decides whether a command line may run under a policy (a plain or a merged one). */
export function decideCommand(
  policy: EffectivePolicy | CommandPolicyInput,
  commandLine: string,
): CommandDecision {
  if (commandLine.length > MAX_COMMAND_LINE) {
    return refuse('builtin:too-long', `the command line is longer than ${MAX_COMMAND_LINE} characters`)
  }
  let checks: Check[]
  try {
    checks = collectChecks(commandLine)
  } catch (err) {
    if (!(err instanceof ParseFailure)) throw err
    return refuse(
      'builtin:unparseable',
      `the command line could not be parsed (${err.message}); fix the syntax`,
    )
  }
  const layers = toLayers(policy)
  let verdict: CommandDecision = { decision: 'allow', rule: 'default' }
  let first = true
  for (const check of checks) {
    const judged = judge(check, layers)
    if (first || STRICTNESS[judged.decision] > STRICTNESS[verdict.decision]) verdict = judged
    first = false
  }
  return verdict
}

/**
 * An org policy over an environment's: members may tighten but never loosen. Org denies always
 * apply, org asks cannot be turned into allows, and the org's default binds commands the org did
 * not name (an org default of `ask` means the environment cannot allow anything on its own).
 */
export function mergePolicies(
  org: CommandPolicyInput | CommandPolicy | undefined,
  env: CommandPolicyInput | CommandPolicy | undefined,
): MergedPolicy {
  const layers: MergedPolicy['layers'] = []
  if (org) layers.push({ source: 'org', policy: CommandPolicy.parse(org) })
  layers.push({ source: 'environment', policy: CommandPolicy.parse(env ?? {}) })
  return { layers }
}

type Layer = { source?: PolicySource; policy: CommandPolicy }

function toLayers(policy: EffectivePolicy | CommandPolicyInput): Layer[] {
  if ('layers' in policy) return policy.layers
  return [{ policy: CommandPolicy.parse(policy) }]
}

function judge(check: Check, layers: Layer[]): CommandDecision {
  if (check.builtin) {
    const { decision, rule, reason } = check.builtin
    return { decision, command: check.command, rule, reason }
  }
  let best: CommandDecision | undefined
  for (const layer of layers) {
    const answer = judgeLayer(check, layer)
    if (!best || STRICTNESS[answer.decision] > STRICTNESS[best.decision]) best = answer
  }
  return best ?? { decision: 'allow', command: check.command, rule: 'default' }
}

function judgeLayer(check: Check, { source, policy }: Layer): CommandDecision {
  const prefix = source === 'org' ? 'org ' : ''
  for (const decision of ['deny', 'ask', 'allow'] as Decision[]) {
    const pattern = policy.commands[decision].find((p) => check.forms.some((form) => matches(p, form)))
    if (pattern) {
      const reason = decision === 'allow' ? undefined : `${prefix}policy says ${decision} for "${pattern}"`
      return { decision, command: check.command, rule: `${prefix}${decision}: ${pattern}`, reason }
    }
  }
  const reason = policy.default === 'allow' ? undefined : `${prefix}policy default is ${policy.default}`
  return { decision: policy.default, command: check.command, rule: `${prefix}default`, reason }
}

/** `sudo *` must also catch a bare `sudo`, and `*` must cross `/` (picomatch's bash mode). */
function matches(pattern: string, form: string): boolean {
  if (picomatch.isMatch(form, pattern, { bash: true, dot: true })) return true
  return pattern.endsWith(' *') && picomatch.isMatch(form, pattern.slice(0, -2), { bash: true, dot: true })
}

function refuse(rule: string, reason: string): CommandDecision {
  return { decision: 'deny', rule, reason }
}
