/**
 * One command in an environment, as a use case: the policy decides, `ask` is settled by who is
 * asking (a person at the command box has asked by typing it; in chat the person approves once;
 * an unattended run cannot ask, so `ask` there means no), the command runs, and every attempt is
 * audited with its decision. The audit sink and the executor are passed in, so this stays free of
 * the database and testable on its own.
 */
import { toPostgresText } from '../../db/text.ts'
import type { EffectivePolicy } from '../policy/policy-schema.ts'
import { judgeCommand } from '../policy/judge.ts'
import { commandTimeout, DEFAULT_LIMITS, type ExecEnvironment, type ExecResult } from './exec-schema.ts'
import { runCommand, type ExecOptions } from './exec.ts'
import { makeRedactor } from '../../lib/redact.ts'

/** `chat`: the agent in a conversation; `run`: an unattended job run; `person`: the command box. */
export type CommandMode = 'chat' | 'run' | 'person'

/** `network_blocked`: allowed (or approved) to run, but the sandbox refused its connections. */
export type AuditDecision = 'allowed' | 'approved' | 'denied' | 'network_blocked'

export type CommandAudit = {
  kind: 'command'
  command: string
  decision: AuditDecision
  rule: string | null
  reason: string | null
  exitCode: number | null
  durationMs: number | null
  bytesOut: number | null
}

export type CommandOutcome =
  | { status: 'ran'; decision: AuditDecision; rule: string | null; result: ExecResult }
  | { status: 'needs_approval'; command: string; rule: string; reason: string }
  | { status: 'denied'; rule: string; reason: string }

export type CommandRequest = {
  env: ExecEnvironment & { policy: EffectivePolicy }
  command: string
  mode: CommandMode
  /** Set when the person approved this exact command in chat. */
  approved?: boolean
  /** Whose command it is (a person's id): the judge takes the people waiting in turn. */
  tenant?: string
  timeoutSeconds?: number
}

export type CommandDeps = {
  audit: (entry: CommandAudit) => Promise<void>
  exec?: (env: ExecEnvironment, command: string, opts: ExecOptions) => Promise<ExecResult>
  execOptions?: ExecOptions
}

/** The most of a failure's message an audit row keeps. */
const MAX_REASON = 500

export async function runPolicedCommand(req: CommandRequest, deps: CommandDeps): Promise<CommandOutcome> {
  const redact = makeRedactor(Object.values(req.env.secrets ?? {}))
  const shown = redact(req.command)
  const verdict = await judgeCommand(req.env.policy, req.command, { tenant: req.tenant })
  const rule = verdict.rule ?? 'default'
  const denied = async (reason: string): Promise<CommandOutcome> => {
    await deps.audit(entry(shown, 'denied', rule, reason))
    return { status: 'denied', rule, reason }
  }
  if (verdict.decision === 'deny')
    return denied(`Denied by ${rule}: ${verdict.reason ?? 'the policy forbids it'}`)
  let decision: AuditDecision = 'allowed'
  if (verdict.decision === 'ask') {
    const why = verdict.reason ?? `the policy asks before "${verdict.command ?? shown}"`
    if (req.mode === 'run') {
      return denied(
        `Needs a person's approval (${rule}: ${why}); an unattended run cannot ask, so it was denied`,
      )
    }
    if (req.mode === 'chat' && !req.approved) {
      return { status: 'needs_approval', command: shown, rule, reason: why }
    }
    decision = 'approved'
  }
  const exec = deps.exec ?? runCommand
  // A caller may ask for less time than the environment allows, never more (every provider).
  const timeoutSeconds = commandTimeout({ ...DEFAULT_LIMITS, ...req.env.limits }, req.timeoutSeconds)
  let result: ExecResult
  try {
    result = await exec(req.env, req.command, { ...deps.execOptions, timeoutSeconds })
  } catch (err) {
    // A command that was let through is audited even when no result came back: a connected
    // machine's client that answered with a bad reply (or went away) had run it all the same,
    // and before this left no trace of it (decision 0419). The why may be that client's own
    // words: kept short, and storable by Postgres (no NUL).
    const why = toPostgresText(err instanceof Error ? err.message : String(err)).slice(0, MAX_REASON)
    await deps.audit(entry(shown, decision, rule === 'default' ? null : rule, redact(`No result: ${why}`)))
    throw err
  }
  const blocked = result.networkBlocked ?? []
  const reason = blocked.length > 0 ? describeNetworkRefusal(blocked) : null
  if (blocked.length > 0) decision = 'network_blocked'
  await deps.audit({
    ...entry(shown, decision, decision === 'allowed' && rule === 'default' ? null : rule, reason),
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    bytesOut: result.bytesOut,
  })
  return { status: 'ran', decision, rule: rule === 'default' ? null : rule, result }
}

/** Why a command's connections were refused, in the words the audit, the page and the agent show. */
export function describeNetworkRefusal(blocked: string[]): string {
  return (
    `Network refused: ${blocked.join(', ')} ${blocked.length === 1 ? 'is' : 'are'} not in the ` +
    "environment's allowlist (policy.network.allow in its definition)"
  )
}

function entry(
  command: string,
  decision: AuditDecision,
  rule: string | null,
  reason: string | null,
): CommandAudit {
  return {
    kind: 'command',
    command,
    decision,
    rule,
    reason,
    exitCode: null,
    durationMs: null,
    bytesOut: null,
  }
}
