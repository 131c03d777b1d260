/**
 * The rules for changing a job, as one pure function: what the row becomes, what the audit trail
 * says, and which changes are refused. The write path (writes.ts) supplies the locked row and the
 * database clock, and stores the result.
 */
import type { Caller } from '../auth/caller.ts'
import { canUseSharedKey } from '../access/rules.ts'
import { HttpError, badRequest } from '../lib/errors.ts'
import { auditActionFor, diffDefinition, named, summarizeChanges, type AuditAction } from './audit.ts'
import { definitionOf, JOB_FIELDS, PROMPT_KEYS, type JobDefinition, type JobFieldKey } from './fields.ts'
import { checkHarness, nextRunAhead } from './field-schemas.ts'
import type { JobUpdateInput } from './schema.ts'
import type { AuditChanges, JobRow, NewJobRow } from './store.ts'

export type JobChangePlan = {
  set: Partial<NewJobRow>
  changes: AuditChanges
  action: AuditAction
  note: string | null
}

export type JobChangeContext = {
  caller: Caller
  job: JobRow
  change: JobUpdateInput
  /** The database clock: next runs are computed from it. */
  now: Date
  /** Whether the job's creator is still a member of its organisation. */
  creatorIsMember: boolean
  /**
   * Whether `enabled: true` also lifts a suspension the system set (PATCH, the pause switch). A job
   * file always says `enabled`, so saving one should not silently resume a suspended job.
   */
  liftsSuspension: boolean
}

/**
 * Plans a change to a job the caller may edit, or returns null when it changes nothing.
 *
 * @throws 400 `runAs` for `runAs: shared` on a personal job; 403 `runAs` when someone who may not
 *   spend the organisation's key changes a job that spends it (pausing it is always allowed).
 */
export function planJobChange(ctx: JobChangeContext): JobChangePlan | null {
  const { caller, job, change, now } = ctx
  if (change.runAs === 'shared' && job.scope === 'personal') {
    throw badRequest('runAs: "shared" is only for shared jobs; a personal job runs as its creator', 'runAs')
  }
  const given = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined))
  const after: JobDefinition = { ...definitionOf(job), ...given }
  const changes = diffDefinition(definitionOf(job), after)
  if (changes.harness || changes.environment) checkHarness(after)

  const resuming =
    change.enabled === true && (!job.enabled || (ctx.liftsSuspension && job.suspendedReason !== null))
  const liftSuspension = resuming && job.suspendedReason !== null
  if (liftSuspension) changes.suspendedReason = { from: job.suspendedReason, to: null }
  // Resuming a one-shot whose slot is used, or moving one into the past, would never fire.
  const retimed = changes.schedule || changes.timezone || changes.enabled || liftSuspension
  const next = retimed ? nextRunAhead(after, now) : undefined

  const beyondOnOff = Object.keys(changes).some((key) => key !== 'enabled' && key !== 'suspendedReason')
  if (after.runAs === 'shared' && beyondOnOff && !canUseSharedKey(caller, job)) {
    throw new HttpError(
      403,
      'forbidden',
      "runAs: this job runs on the organisation's model key, which only admins and owners may set or " +
        'change; pausing it is fine, or ask an admin',
      'runAs',
    )
  }

  // Invariant 4: a job never runs a prompt under the identity of someone who did not write it. The
  // prompt is more than the instructions: skills put their text in the system prompt, MCP servers
  // their tools' descriptions and results (fields.ts `prompt`). An admin who gave a member's shared
  // job their own skill would otherwise run their text as the member, on the member's key, with
  // the member's personal environments, secrets and jobs (docs/decisions/0418).
  const rewrote = PROMPT_KEYS.filter((key) => changes[key])
  let createdBy = job.createdBy
  let note: string | null = null
  if (rewrote.length > 0 && caller.userId !== job.createdBy) {
    createdBy = caller.userId
    note = `${named(caller)} ${rewroteWords(rewrote)} and became the job's creator; runs use their identity`
  } else if (resuming && !ctx.creatorIsMember && caller.userId !== job.createdBy) {
    createdBy = caller.userId
    note = `${named(caller)} resumed the job and took it over from a creator who left`
  }
  if (createdBy !== job.createdBy) changes.createdBy = { from: job.createdBy, to: createdBy }
  if (Object.keys(changes).length === 0) return null

  const set: Partial<NewJobRow> = { ...after, createdBy, version: job.version + 1, updatedAt: now }
  if (liftSuspension) {
    set.suspendedReason = null
    set.consecutiveFailures = 0
    set.stateUpdatedAt = now
  }
  if (next !== undefined) {
    const suspended = job.suspendedReason !== null && !liftSuspension
    set.nextRunAt = suspended ? null : next
  }
  return { set, changes: summarizeChanges(changes), action: auditActionFor(changes, after.enabled), note }
}

/** "rewrote the instructions", "changed the skills and MCP servers": what the audit note says was changed. */
function rewroteWords(keys: JobFieldKey[]): string {
  if (keys.length === 1 && keys[0] === 'instructions') return 'rewrote the instructions'
  const names = keys.map((key) => (key === 'instructions' ? 'instructions' : JOB_FIELDS[key].audit))
  const listed = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]
  return `changed the ${listed}`
}
