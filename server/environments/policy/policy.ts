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
import { type Budget, compileGlob, type Glob, GlobBudgetSpent, globMatches } from '../../lib/glob.ts'
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
import { MAX_NESTING, NestedTooDeep } from './policy-tree.ts'
import { type Check, collectChecks, ParseFailure, WalkBudgetSpent } from './policy-walk.ts'

export { CommandPolicy } from './policy-schema.ts'
export type {
  CommandDecision,
  CommandPolicyInput,
  Decision,
  EffectivePolicy,
  MergedPolicy,
} from './policy-schema.ts'

/** Longest command line judged; longer ones are refused rather than parsed. */
export const MAX_COMMAND_LINE = 64 * 1024
/**
 * Pattern-matching steps one decision may take (tens of milliseconds). Matching is linear per
 * pattern (lib/glob.ts), but 600 patterns over a 64 KiB line still add up; past this the line is
 * refused rather than hold the event loop.
 */
export const MATCH_BUDGET = 20_000_000

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
    if (err instanceof NestedTooDeep) {
      return refuse(
        'builtin:too-complex',
        `the command line nests more than ${MAX_NESTING} expansions inside one another; split it up`,
      )
    }
    // A stack overflow is a line nested deeper than the parser or the walk can recurse (a sum of
    // 20,000 terms is 20,000 levels): as complex as a spent budget, and no 500.
    if (err instanceof WalkBudgetSpent || err instanceof RangeError) {
      return refuse('builtin:too-complex', 'the command line is too complex to judge; split it up')
    }
    if (!(err instanceof ParseFailure)) throw err
    return refuse(
      'builtin:unparseable',
      `the command line could not be parsed (${err.message}); fix the syntax`,
    )
  }
  const layers = toLayers(policy)
  let verdict: CommandDecision = { decision: 'allow', rule: 'default' }
  let first = true
  const globs = new Globs({ steps: MATCH_BUDGET })
  try {
    for (const check of checks) {
      const judged = judge(check, layers, globs)
      if (first || STRICTNESS[judged.decision] > STRICTNESS[verdict.decision]) verdict = judged
      first = false
    }
  } catch (err) {
    if (!(err instanceof GlobBudgetSpent)) throw err
    return refuse('builtin:too-complex', 'the command line is too long to judge against this policy')
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

function judge(check: Check, layers: Layer[], globs: Globs): CommandDecision {
  if (check.builtin) {
    const { decision, rule, reason } = check.builtin
    return { decision, command: check.command, rule, reason }
  }
  let best: CommandDecision | undefined
  for (const layer of layers) {
    const answer = judgeLayer(check, layer, globs)
    if (!best || STRICTNESS[answer.decision] > STRICTNESS[best.decision]) best = answer
  }
  return best ?? { decision: 'allow', command: check.command, rule: 'default' }
}

function judgeLayer(check: Check, { source, policy }: Layer, globs: Globs): CommandDecision {
  const prefix = source === 'org' ? 'org ' : ''
  for (const decision of ['deny', 'ask', 'allow'] as Decision[]) {
    const pattern = policy.commands[decision].find((p) => check.forms.some((form) => globs.matches(p, form)))
    if (pattern) {
      const reason = decision === 'allow' ? undefined : `${prefix}policy says ${decision} for "${pattern}"`
      return { decision, command: check.command, rule: `${prefix}${decision}: ${pattern}`, reason }
    }
    // Computed arguments and a rule about this command: what runs may be what the rule names.
    const named = decision !== 'allow' && check.dynamic && namedBy(policy.commands[decision], check, globs)
    if (named) {
      const reason = `its arguments are computed, and ${prefix}policy says ${decision} for "${named}"`
      return { decision: 'ask', command: check.command, rule: `${prefix}${decision}: ${named}`, reason }
    }
  }
  const reason = policy.default === 'allow' ? undefined : `${prefix}policy default is ${policy.default}`
  return { decision: policy.default, command: check.command, rule: `${prefix}default`, reason }
}

/** The first pattern whose command name (its first word) matches the check's. */
function namedBy(patterns: string[], check: Check, globs: Globs): string | undefined {
  return patterns.find((p) => (check.names ?? []).some((name) => globs.test(p.split(' ')[0]!, name)))
}

/**
 * The patterns of one decision, each compiled once however many simple commands the line holds
 * (compiling each again per command let a policy of 600 braced patterns hold the loop for seconds
 * over a 256-character line), compiling and matching paid for from one budget.
 */
class Globs {
  private readonly compiled = new Map<string, Glob>()

  constructor(private readonly budget: Budget) {}

  /** `sudo *` must also catch a bare `sudo`, and `*` crosses `/` (lib/glob.ts). */
  matches(pattern: string, form: string): boolean {
    if (this.test(pattern, form)) return true
    return pattern.endsWith(' *') && this.test(pattern.slice(0, -2), form)
  }

  test(pattern: string, text: string): boolean {
    let glob = this.compiled.get(pattern)
    if (!glob) {
      glob = compileGlob(pattern, this.budget)
      this.compiled.set(pattern, glob)
    }
    return globMatches(glob, text, this.budget)
  }
}

function refuse(rule: string, reason: string): CommandDecision {
  return { decision: 'deny', rule, reason }
}
