/**
 * One policy, one audit for a harness's own tools. Its shell tool (`Bash`) is judged like
 * `run_command`: the environment's command policy with the org's layer, on every simple command of
 * the line; `ask` means no in an unattended run and waits for the person in chat. File edits and
 * web fetches are audited (the sandbox confines them to the folder and the endpoint); reads are
 * not. Every decision lands in the environment's audit with the run or thread it came from.
 */
import type { Caller } from '../auth/caller.ts'
import { judgeCommand } from '../environments/policy/judge.ts'
import type { OpenEnvironment } from '../environments/service.ts'
import { auditAllowanceRefusal } from '../accounts/audit-allowance.ts'
import { insertAudit } from '../environments/store.ts'
import type { Decide, ToolVerdict } from './endpoint-hook.ts'

/** Asks the person in chat about a command the policy marks `ask`; true when they allow it. */
export type Approver = (ask: { command: string; reason: string }) => Promise<boolean>

/** Tools that run a shell line, by harness. */
const SHELL_TOOLS = new Set(['Bash'])
/** Tools that change files: audited as writes with their path. */
const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit'])
/** Tools that reach out: audited with what they asked for. */
const FETCH_TOOLS = new Set(['WebFetch', 'WebSearch'])

type Context = {
  caller: Caller
  opened: OpenEnvironment
  mode: 'run' | 'chat'
  origin: { runId?: string; threadId?: string }
  approve?: Approver
}

export function createPolicyHook(ctx: Context): Decide {
  const { opened } = ctx
  const redact = opened.files.redact ?? ((text: string) => text)
  const audit = (entry: {
    kind: 'command' | 'write'
    subject: string
    decision: 'allowed' | 'approved' | 'denied'
    rule?: string | null
    reason?: string | null
  }) =>
    insertAudit({
      environmentId: opened.row.id,
      orgId: opened.row.orgId,
      actorId: ctx.caller.userId,
      runId: ctx.origin.runId,
      threadId: ctx.origin.threadId,
      kind: entry.kind,
      // Cut by insertAudit after redaction (a cut never halves a secret): what reports a tool call
      // is whatever runs in the sandbox.
      subject: redact(entry.subject),
      decision: entry.decision,
      rule: entry.rule ?? null,
      reason: entry.reason ?? null,
    })

  return async ({ tool, input }, refusal) => {
    if (refusal !== undefined) {
      // Refused before any judging (its person left or lost their role): audited like a deny.
      const refused = { decision: 'denied' as const, reason: refusal }
      if (SHELL_TOOLS.has(tool))
        await audit({ kind: 'command', subject: String(input.command ?? ''), ...refused })
      else if (WRITE_TOOLS.has(tool))
        await audit({
          kind: 'write',
          subject: String(input.file_path ?? input.notebook_path ?? tool),
          ...refused,
        })
      else if (FETCH_TOOLS.has(tool))
        await audit({
          kind: 'command',
          subject: `${tool} ${String(input.url ?? input.query ?? '')}`,
          ...refused,
        })
      return { allow: false, reason: refusal }
    }
    // Past its person's audit allowance, a tool call that would be recorded is refused unrecorded
    // (a refusal recorded would itself fill the trail; decision 0500).
    if (SHELL_TOOLS.has(tool) || WRITE_TOOLS.has(tool) || FETCH_TOOLS.has(tool)) {
      const spent = await auditAllowanceRefusal(ctx.caller.userId)
      if (spent) return { allow: false, reason: spent }
    }
    if (SHELL_TOOLS.has(tool)) return judgeShell(String(input.command ?? ''))
    if (WRITE_TOOLS.has(tool)) {
      await audit({
        kind: 'write',
        subject: String(input.file_path ?? input.notebook_path ?? tool),
        decision: 'allowed',
      })
    } else if (FETCH_TOOLS.has(tool)) {
      await audit({
        kind: 'command',
        subject: `${tool} ${String(input.url ?? input.query ?? '')}`,
        decision: 'allowed',
      })
    }
    return { allow: true }
  }

  async function judgeShell(command: string): Promise<ToolVerdict> {
    const verdict = await judgeCommand(opened.policy, command, { tenant: ctx.caller.userId })
    const rule = verdict.rule ?? 'default'
    const deny = async (reason: string): Promise<ToolVerdict> => {
      await audit({ kind: 'command', subject: command, decision: 'denied', rule, reason })
      return { allow: false, reason }
    }
    if (verdict.decision === 'deny')
      return deny(`Denied by ${rule}: ${verdict.reason ?? 'the policy forbids it'}`)
    if (verdict.decision === 'ask') {
      const why = verdict.reason ?? `the policy asks before "${verdict.command ?? command}"`
      if (ctx.mode === 'run' || !ctx.approve)
        return deny(
          `Needs a person's approval (${rule}: ${why}); an unattended run cannot ask, so it was denied`,
        )
      if (!(await ctx.approve({ command: redact(command), reason: why })))
        return deny(`The person declined "${command}" (${rule})`)
      await audit({ kind: 'command', subject: command, decision: 'approved', rule })
      return { allow: true }
    }
    await audit({
      kind: 'command',
      subject: command,
      decision: 'allowed',
      rule: rule === 'default' ? null : rule,
    })
    return { allow: true }
  }
}
