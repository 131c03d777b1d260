/**
 * How job changes are written down in the audit trail: which definition fields changed, from what
 * to what, and under which action name. Pure, so the rules are unit-tested without a database.
 */
import { JOB_FIELD_KEYS, type JobDefinition } from './fields.ts'
import type { AuditChanges } from './store.ts'

/** "Name (email)", as audit notes name people. */
export const named = (person: { name: string; email: string }) => `${person.name} (${person.email})`

/** The audit actions a job can have. */
export type AuditAction = 'create' | 'update' | 'enable' | 'disable' | 'delete'

/** Every field a person writes, in the order the trail lists them (the registry's order). */
export const DEFINITION_FIELDS = JOB_FIELD_KEYS

/**
 * Long texts are kept whole up to this many characters per side; past it, the head is kept with a
 * note of the full length, so a 60 000-character prompt edited twice does not store 240 KB of trail.
 */
export const MAX_AUDIT_TEXT = 4000

/** A value as the trail stores it: long strings shortened, everything else as is. */
export function summarizeForAudit(value: unknown): unknown {
  if (typeof value !== 'string' || value.length <= MAX_AUDIT_TEXT) return value
  return `${value.slice(0, MAX_AUDIT_TEXT)}… [${value.length} characters in all]`
}

/** JSON text with object keys sorted: jsonb does not keep key order, so order is not a change. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b)

/** The definition fields that differ between `before` and `after`, as `{ from, to }` pairs. */
export function diffDefinition(before: JobDefinition, after: JobDefinition): AuditChanges {
  const changes: AuditChanges = {}
  for (const field of DEFINITION_FIELDS) {
    if (!same(before[field], after[field])) changes[field] = { from: before[field], to: after[field] }
  }
  return changes
}

/** Every field of a new job, as changes from nothing. */
export function creationChanges(job: JobDefinition & { name: string; scope: string }): AuditChanges {
  const changes: AuditChanges = { name: { from: null, to: job.name }, scope: { from: null, to: job.scope } }
  for (const field of DEFINITION_FIELDS) changes[field] = { from: null, to: job[field] }
  return summarizeChanges(changes)
}

/** The changes with long texts shortened for storage. */
export function summarizeChanges(changes: AuditChanges): AuditChanges {
  return Object.fromEntries(
    Object.entries(changes).map(([field, { from, to }]) => [
      field,
      { from: summarizeForAudit(from), to: summarizeForAudit(to) },
    ]),
  )
}

// A pause or resume may also clear a suspension or hand the job to whoever resumed it.
const PAUSE_FIELDS: ReadonlySet<string> = new Set(['enabled', 'suspendedReason', 'createdBy'])

/** "enable"/"disable" when only the on/off state moved, else "update". */
export function auditActionFor(changes: AuditChanges, enabledAfter: boolean): AuditAction {
  const keys = Object.keys(changes)
  const pauseOnly = keys.length > 0 && keys.every((key) => PAUSE_FIELDS.has(key))
  const toggled = 'enabled' in changes || 'suspendedReason' in changes
  if (pauseOnly && toggled) return enabledAfter ? 'enable' : 'disable'
  return 'update'
}
