/**
 * Form fields (all strings) to the jobs service's input (typed). Only shape changes happen here:
 * numbers become numbers, "true"/"false" become booleans, and absent or empty optional fields stay
 * absent. Whether the values are valid is the service's zod schema's call (invariant 5).
 */
import { CLEARABLE_KEYS, FORM_KINDS, JOB_FIELD_KEYS, LIST_KEYS } from '../jobs/fields.ts'

const LISTS = new Set(LIST_KEYS)
// JSON fields (extra keys, notify) are edited in the job file, not the form; lists of names are both.
const UPDATE_FIELDS = JOB_FIELD_KEYS.filter((key) => FORM_KINDS[key] !== 'json' || LISTS.has(key))
const CREATE_FIELDS = ['name', 'scope', ...UPDATE_FIELDS]

// Optional fields that default to null ("no limit"): an emptied input clears them.
const CLEARABLE = new Set(CLEARABLE_KEYS)

function convert(key: string, value: string): unknown {
  if (CLEARABLE.has(key) && value.trim() === '') return null
  if (LISTS.has(key)) return value.split(/[\s,]+/).filter(Boolean)
  // A number field with letters in it stays a string, so zod names it ("must be a whole number").
  if (FORM_KINDS[key] === 'number')
    return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value
  if (FORM_KINDS[key] === 'boolean')
    return value === 'true' || value === 'on' ? true : value === 'false' ? false : value
  return value
}

function pick(fields: Record<string, string>, keys: readonly string[], keepEmpty: ReadonlySet<string>) {
  const out: Record<string, unknown> = {}
  for (const key of keys) {
    const value = fields[key]
    if (value === undefined) continue
    if (value === '' && !keepEmpty.has(key) && !CLEARABLE.has(key)) continue
    out[key] = convert(key, value)
  }
  return out
}

// Required text fields are sent even when empty, so the person hears "must not be empty", not "required".
const REQUIRED_TEXT = new Set(['name', 'instructions', 'schedule'])

/** The create input from the new-job form. */
export function toCreateInput(fields: Record<string, string>): Record<string, unknown> {
  return pick(fields, CREATE_FIELDS, REQUIRED_TEXT)
}

/** The update input from the job page: only the fields the form sent (the ones the person changed). */
export function toUpdateInput(fields: Record<string, string>): Record<string, unknown> {
  return pick(fields, UPDATE_FIELDS, REQUIRED_TEXT)
}
