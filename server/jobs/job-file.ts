/**
 * The job file `jobs/<name>.md`: a Markdown view of what a person writes about a job (its
 * definition) and who wrote it. Run state (lastRun, lastStatus, lastError, nextRun) and the
 * organisation are not in it: they are the server's, shown read-only on the job's page
 * (decision 0250). Parsing returns only what a person may write; identity and run state in a
 * submitted file are checked or ignored, never taken (invariant 4).
 */
import matter from 'gray-matter'
import { z } from 'zod'
import { HttpError, badFields, badRequest, payloadTooLarge } from '../lib/errors.ts'
import { parseFrontmatter } from '../lib/frontmatter.ts'
import { BODY_LIMITS } from '../lib/limits.ts'
import { checkInput } from '../lib/validate.ts'
import { JobName, isPlainObject, toJsonValue, type JsonValue } from './field-schemas.ts'
import { foldScheduleKeys, scheduleLine } from './schedule-keys.ts'
import {
  CLEARABLE_KEYS,
  DEFINITION_KEYS,
  IDENTITY_KEYS,
  JOB_FIELDS,
  JOB_FIELD_KEYS,
  MANAGED_KEYS,
  RESERVED_KEYS,
  type JobDefinition,
  type JobFieldKey,
} from './fields.ts'

/** Largest job file accepted, in UTF-8 bytes: the same as a JSON body, so the API and files agree. */
export const MAX_JOB_FILE_BYTES = BODY_LIMITS.jobFile

/**
 * Room kept in a job's file for what the server writes into it later (the creator's email, which
 * a transfer may change): a job is saved only while its file is this much under the limit, so any
 * job's file can always be saved back unchanged.
 */
const SERVER_FIELDS_ROOM = 8 * 1024

/**
 * Refuses a job whose file would leave too little room under the file limit (for example a large
 * `extra`, which YAML writes bigger than JSON).
 *
 * @throws HttpError 413
 */
export function checkJobFileSize(job: JobFileView): void {
  const bytes = Buffer.byteLength(renderJobFile(job), 'utf8')
  const limit = MAX_JOB_FILE_BYTES - SERVER_FIELDS_ROOM
  if (bytes > limit) {
    throw payloadTooLarge(
      `The job's file would be ${bytes} bytes; a job file may be at most ${limit} (shorten the instructions or extra)`,
    )
  }
}

/** Who the server says owns the job: the stored creator and org, or the caller's for a new file. */
export type JobFileTruth = { createdByEmail: string; orgId: string }

/**
 * The definition a job file sets. Keys the file leaves out are absent (never `undefined`-valued),
 * so the service can spread them over its defaults.
 */
type Required = {
  [K in JobFieldKey]: (typeof JOB_FIELDS)[K] extends { required: true } ? K : never
}[JobFieldKey]
export type ParsedJobFile = Pick<JobDefinition, Required> &
  Partial<Omit<JobDefinition, Required | 'extra'>> & { extra: Record<string, JsonValue> }

/** A job as its file shows it: the definition and who wrote it (no run state, no organisation). */
export type JobFileView = JobDefinition & { createdByEmail: string }

// Written-but-empty keys (`timezone:`) read as absent, not as a wrong type.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? undefined : v), schema.optional())

// Frontmatter and body fields from the registry; required ones stay required.
const FileFields = z.object(
  Object.fromEntries(
    JOB_FIELD_KEYS.filter((key) => JOB_FIELDS[key].file !== 'extra').map((key) => {
      const spec: { schema: z.ZodType; required?: true } = JOB_FIELDS[key]
      return [key, spec.required ? spec.schema : optional(spec.schema)]
    }),
  ),
)

const definitionKeys: ReadonlySet<string> = new Set(DEFINITION_KEYS)
const identityKeys: ReadonlySet<string> = new Set(IDENTITY_KEYS)
const managedKeys: ReadonlySet<string> = new Set(MANAGED_KEYS)

/**
 * Parses and validates a job file.
 *
 * @param ctx.name The job name, from the file path `jobs/<name>.md`.
 * @param ctx.truth The identity the server holds: the job's creator and org for an existing job,
 *   the caller's email and active org for a new file. A `createdBy` (compared case-insensitively)
 *   or `orgId` in the file must match it; with `null`, any `createdBy`/`orgId` is rejected.
 * @throws HttpError 413 over {@link MAX_JOB_FILE_BYTES}; 400 naming the line for broken YAML and
 *   naming the field for everything else (name, schedule, timezone, instructions, …).
 */
export function parseJobFile(text: string, ctx: { name: string; truth: JobFileTruth | null }): ParsedJobFile {
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > MAX_JOB_FILE_BYTES) {
    throw payloadTooLarge(
      `The job file is ${bytes} bytes; the limit is ${MAX_JOB_FILE_BYTES} (${MAX_JOB_FILE_BYTES / 1024} KiB)`,
    )
  }
  const nameCheck = checkInput(z.object({ name: JobName }), { name: ctx.name })

  const data = readFrontmatter(text)
  const fields: Record<string, unknown> = {}
  const extra: [string, unknown][] = []
  for (const [key, value] of Object.entries(foldScheduleKeys(data.frontmatter) as Record<string, unknown>)) {
    if (definitionKeys.has(key)) fields[key] = value
    else if (identityKeys.has(key)) checkIdentity(key as (typeof IDENTITY_KEYS)[number], value, ctx.truth)
    else if (managedKeys.has(key)) continue
    else if (key === 'instructions') {
      throw badRequest('instructions: write them below the frontmatter, not as a key', 'instructions')
    } else extra.push([key, value])
  }

  const fieldsCheck = checkInput(FileFields, { ...fields, instructions: data.body })
  // Every bad field at once, the file's name among them.
  const problems = [nameCheck, fieldsCheck].flatMap((check) => (check.ok ? [] : check.problems))
  if (problems.length > 0 || !fieldsCheck.ok) throw badFields(problems)
  const parsed = fieldsCheck.data as Omit<ParsedJobFile, 'extra'>
  const json = toJsonValue(Object.fromEntries(extra))
  if (!json.ok) {
    const field = json.path.join('.')
    throw badRequest(`${field}: ${json.message}`, field)
  }
  const given = Object.entries(parsed).filter(([, value]) => value !== undefined)
  // A left-out optional field ("no limit") is unset, as the renderer leaves an unset one out.
  const unset = CLEARABLE_KEYS.filter((key) => parsed[key as keyof typeof parsed] === undefined)
  return {
    ...Object.fromEntries(unset.map((key) => [key, null])),
    ...(Object.fromEntries(given) as typeof parsed),
    extra: json.value as Record<string, JsonValue>,
  }
}

/** Splits the file into its YAML mapping and body, with 400s that point at the line. */
function readFrontmatter(text: string): { frontmatter: Record<string, unknown>; body: string } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  const opener = lines[0] ?? ''
  if (opener.trimEnd() !== '---') {
    if (/^---[^-]/.test(opener)) {
      throw badRequest('Line 1: the frontmatter must be YAML, opened by a line with just ---', 'frontmatter')
    }
    throw badRequest(
      'schedule: is required; start the file with a --- frontmatter block holding it',
      'schedule',
    )
  }
  if (!lines.slice(1).some((line) => line.startsWith('---'))) {
    throw badRequest('The frontmatter is not closed: add a line with just --- after it', 'frontmatter')
  }

  let file: ReturnType<typeof parseFrontmatter>
  try {
    file = parseFrontmatter(text)
  } catch (err) {
    throw yamlError(err, lines)
  }
  // An empty block gives {}; a scalar or list is not a set of keys.
  if (!isPlainObject(file.data)) {
    throw badRequest(
      'The frontmatter must be a mapping of keys to values (one "key: value" a line)',
      'frontmatter',
    )
  }
  return { frontmatter: file.data, body: file.content }
}

function yamlError(err: unknown, lines: string[]) {
  if (err instanceof HttpError) return err // an anchor, refused by parseFrontmatter
  const { reason, mark } = (err ?? {}) as { reason?: string; mark?: { line?: number } }
  if (typeof mark?.line !== 'number') return badRequest('The frontmatter is not valid YAML', 'frontmatter')
  // js-yaml counts from 0 within the block, and the block starts on the opener's line.
  const line = mark.line + 1
  const hint = /^schedule:\s*[^\s"']/.test(lines[mark.line] ?? '')
    ? ' (put the cron expression in quotes, e.g. schedule: "*/5 * * * *")'
    : ''
  return badRequest(`Line ${line}: invalid YAML: ${reason ?? 'syntax error'}${hint}`, 'frontmatter')
}

function checkIdentity(key: (typeof IDENTITY_KEYS)[number], value: unknown, truth: JobFileTruth | null) {
  if (value === null || value === undefined) return
  if (!truth) throw badRequest(`${key}: is set by the server; remove it`, key)
  const expected = key === 'createdBy' ? truth.createdByEmail : truth.orgId
  const given = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : null
  const same =
    given !== null &&
    (key === 'createdBy' ? given.toLowerCase() === expected.toLowerCase() : given === expected)
  if (!same)
    throw badRequest(`${key}: is set by the server and must be ${expected}; remove it to keep it`, key)
}

// js-yaml 3 folds long strings at 80 columns and writes anchors for repeated objects by default.
const DUMP_OPTIONS = { language: 'yaml', lineWidth: -1, noRefs: true }

/**
 * Renders a job as its file: frontmatter in a stable order (definition, extra keys in insertion
 * order, createdBy, nulls omitted), a blank line, the instructions. Run state and the
 * organisation are left out: the file is what a person writes and diffs (decision 0250).
 * `parseJobFile(renderJobFile(job))` gives back the job's definition.
 */
export function renderJobFile(job: JobFileView): string {
  const data = Object.fromEntries([
    // An unset optional field (null) is left out, as the parser reads a missing key.
    ...DEFINITION_KEYS.filter((key) => key !== 'schedule' && job[key] !== null).map((key) => [key, job[key]]),
    ...Object.entries(job.extra).filter(([key]) => !RESERVED_KEYS.has(key)),
    ['createdBy', job.createdByEmail],
  ])
  const doc = matter.stringify({ content: `\n${job.instructions.trim()}\n` }, data, DUMP_OPTIONS)
  // js-yaml 3 cannot force quotes, and an unquoted `*/5 …` is a YAML alias: write schedule first, ourselves.
  // A valid schedule is plain ASCII, so its JSON string is a valid YAML double-quoted scalar.
  return doc.replace(/^---\n/, `---\n${scheduleLine(job.schedule)}\n`)
}
