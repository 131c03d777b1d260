/**
 * The zod schema of each job field on its own, with the `.describe()` texts that double as the
 * agent's tool documentation. The registry (fields.ts) says how each is used; field schemas carry
 * no defaults: zod applies a default even inside `.partial()`, which would make a PATCH silently
 * reset fields.
 */
import { z } from 'zod'
import { badRequest } from '../lib/errors.ts'
import { isOneShot, isValidTimezone, nextRun, validateSchedule } from '../cron/cron.ts'
import { toSlug } from '../lib/text.ts'

/** Instructions are capped so that even in three-byte characters they fit the 256 KiB job file limit. */
export const MAX_INSTRUCTIONS = 60_000
// Enough for any honest metadata; a YAML alias bomb expands far past it.
const MAX_EXTRA_NODES = 10_000
const MAX_EXTRA_DEPTH = 32

export const JobName = z
  .string({ error: 'must be a string' })
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, {
    error: 'must be a slug of 1–63 lowercase letters, digits and dashes, not starting with a dash',
  })
  .describe(
    'Unique name of the job in its scope, a slug like "daily-signups"; also its file name jobs/<name>.md',
  )

/**
 * The job name a person most likely meant by `text`: "Weekly Report!" → `weekly-report`. Accents
 * lose their marks, anything else that is not a letter or digit becomes one dash. The result
 * still goes through {@link JobName} (it is empty when `text` had no letter or digit).
 */
export function toJobName(text: string): string {
  return toSlug(text, 63)
}

export const Schedule = z
  .string({
    error: (iss) =>
      iss.input === undefined ? 'is required' : 'must be a cron expression string (or "at …", "every …")',
  })
  .trim()
  .superRefine((expr, ctx) => {
    const result = validateSchedule(expr)
    // The validator's expression-level reasons start with "schedule …"; the field name is prefixed anyway.
    if (result.ok) return
    ctx.addIssue({ code: 'custom', message: result.message.replace(/^schedule /, ''), input: expr })
  })
  .describe(
    'Standard 5-field cron expression "minute hour day-of-month month day-of-week", e.g. "0 7 * * 1-5" ' +
      'for weekdays at 07:00, or one of @hourly @daily @weekly @monthly @yearly; or "at 2026-12-24T09:00" ' +
      '(once, in the time zone; the job pauses itself after it) or "every 90m" (fixed interval, 1m to 31d)',
  )

export const Timezone = z
  .string({ error: 'must be an IANA time zone name' })
  .trim()
  .refine(isValidTimezone, {
    error: (iss) => `unknown time zone ${JSON.stringify(iss.input)} (use an IANA name like Europe/Berlin)`,
  })
  .describe(
    'IANA time zone the schedule is read in, e.g. "Europe/Berlin"; defaults to the creator\'s zone, else UTC',
  )

export const Instructions = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(MAX_INSTRUCTIONS, { error: `must be at most ${MAX_INSTRUCTIONS} characters` })
  // Postgres text cannot hold U+0000; refusing it here turns a would-be 500 into a 400.
  .refine((text) => !text.includes('\u0000'), { error: 'must not contain NUL characters' })
  .describe('The prompt the agent runs on every fire, in plain language or Markdown')

export const AgentMayEditJobs = z
  .boolean({ error: 'must be true or false' })
  .describe(
    "true lets this job's own unattended runs create and change jobs (set by the job's creator or an admin); " +
      'otherwise they may only read jobs',
  )

export const Enabled = z
  .boolean({ error: 'must be true or false' })
  .describe('false pauses the job without deleting it')

export const Scope = z
  .enum(['personal', 'shared'], { error: 'must be "personal" or "shared"' })
  .describe('personal: only its creator sees and runs it; shared: every member of the organisation sees it')

export const RunAs = z
  .enum(['creator', 'shared'], { error: 'must be "creator" or "shared"' })
  .describe(
    'Whose identity and model key a run uses: creator (whoever wrote the current instructions) or shared ' +
      "(the organisation's key; shared jobs only, set by admins and owners)",
  )

export const CatchUp = z
  .enum(['latest', 'skip'], { error: 'must be "latest" or "skip"' })
  .describe('After downtime: latest runs the most recent missed slot once, skip runs none (default latest)')

export const Overlap = z
  .enum(['skip', 'queue'], { error: 'must be "skip" or "queue"' })
  .describe('When a slot comes while the previous run is still going: skip it or queue it (default skip)')

const intBetween = (min: number, max: number) =>
  z
    .number({ error: `must be a whole number from ${min} to ${max}` })
    .int({ error: `must be a whole number from ${min} to ${max}` })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` })

export const Retries = intBetween(0, 5).describe(
  'How many times a failed run is retried, with backoff 30 s, 1 min, 5 min, 15 min, 60 min (0–5, default 0)',
)

export const TimeoutMinutes = intBetween(1, 60).describe(
  'Minutes a run may take before it is stopped as timed out (1–60, default 10)',
)

export const MaxCostUsd = z
  .number({ error: 'must be an amount in US dollars, like 0.5' })
  .positive({ error: 'must be more than 0' })
  .max(10_000, { error: 'must be at most 10000' })
  .nullable()
  .describe(
    'The most one run may cost in US dollars (estimated from its tokens); a run that goes over it is stopped after the step that crossed it and recorded as an error. null: no cap',
  )

export const EnvironmentRef = z
  .string({ error: 'must be an environment name' })
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, { error: 'must be an environment name like "scratch" or "reports"' })
  .nullable()
  .describe(
    'The environment (environments/<name>.md) whose folder runs of this job work in; null: a scratch folder',
  )

/**
 * What does a run's work: `builtin` (the agent loop) or a harness adapter (server/harness/registry.ts,
 * which a test keeps equal to this list).
 */
export const HARNESS_IDS = ['builtin', 'claude-code', 'opencode'] as const

/** How the job form and messages name each harness. */
export const HARNESS_LABELS: Record<(typeof HARNESS_IDS)[number], string> = {
  builtin: 'Built-in agent',
  'claude-code': 'Claude Code',
  opencode: 'OpenCode',
}

// A string, not an enum, in the stored type: the column stays plain text as adapters come and go.
export const Harness = z
  .string({ error: 'must be a harness name' })
  .refine((id) => (HARNESS_IDS as readonly string[]).includes(id), {
    error: `must be one of ${HARNESS_IDS.join(', ')}`,
  })
  .describe(
    'Who does the work of a run: builtin (the agent) or a coding-agent CLI such as claude-code, which runs ' +
      "inside the job's environment (a harness needs an environment)",
  )

/** A harness works in a folder it can be confined to: without an environment it is refused. @throws 400 `harness` */
export function checkHarness(definition: { harness: string; environment: string | null }) {
  if (definition.harness !== 'builtin' && !definition.environment) {
    throw badRequest(
      `harness: ${definition.harness} runs inside the job's environment; name one in Environment ` +
        '(environment: <name> in a job file, one of environments/<name>.md), or use the built-in agent',
      'harness',
    )
  }
}

/**
 * When a job with this definition next runs from `now`: null while it is paused. A one-off job set
 * to a time that has passed would be enabled and never fire: refused, on create and whenever its
 * schedule, zone or switch changes, so the person hears it when they can fix it.
 * @throws 400 `schedule`
 */
export function nextRunAhead(
  definition: { schedule: string; timezone: string; enabled: boolean },
  now: Date,
): Date | null {
  if (!definition.enabled) return null
  const next = nextRun(definition.schedule, { after: now, timezone: definition.timezone })
  if (next !== null || !isOneShot(definition.schedule)) return next
  throw badRequest(
    `schedule: ${definition.schedule.slice(3).trim()} in ${definition.timezone} has passed; a one-off job ` +
      'runs once, at a time still to come (or pause it)',
    'schedule',
  )
}

/** A JSON value as stored in Postgres jsonb. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/** Where and why a value cannot be stored as JSON. */
export type JsonProblem = { path: (string | number)[]; message: string }

/**
 * Copies `value` into plain JSON, turning Dates (YAML's unquoted timestamps) into ISO strings, or
 * says where it cannot. Bounded by node count and depth, so YAML aliases that share or cycle
 * references cannot blow up the walk or the stored row.
 */
export function toJsonValue(value: unknown): { ok: true; value: JsonValue } | ({ ok: false } & JsonProblem) {
  let nodes = 0
  const copy = (v: unknown, path: (string | number)[]): JsonValue => {
    if (++nodes > MAX_EXTRA_NODES)
      throw new NotJson(path.slice(0, 1), `is too large (over ${MAX_EXTRA_NODES} values)`)
    if (path.length > MAX_EXTRA_DEPTH) {
      throw new NotJson(path.slice(0, 1), `is nested too deeply (over ${MAX_EXTRA_DEPTH} levels)`)
    }
    // jsonb rejects U+0000 in strings and keys, so say so here rather than fail on insert.
    if (typeof v === 'string' && v.includes('\u0000'))
      throw new NotJson(path, 'must not contain NUL characters')
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v
    if (typeof v === 'number') {
      if (Number.isFinite(v)) return v
      throw new NotJson(path, 'must be a finite number')
    }
    if (v instanceof Date) {
      if (!Number.isNaN(v.getTime())) return v.toISOString()
      throw new NotJson(path, 'is not a valid date')
    }
    if (Array.isArray(v)) return v.map((item, i) => copy(item, [...path, i]))
    // fromEntries defines own properties, so a "__proto__" key stays plain data.
    if (isPlainObject(v)) {
      const nul = Object.keys(v).find((k) => k.includes('\u0000'))
      if (nul !== undefined) throw new NotJson([...path, nul], 'must not contain NUL characters')
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, copy(item, [...path, k])]))
    }
    throw new NotJson(path, 'must be a string, number, boolean, null, list or mapping')
  }
  try {
    return { ok: true, value: copy(value, []) }
  } catch (err) {
    if (err instanceof NotJson) return { ok: false, path: err.path, message: err.message }
    throw err
  }
}

class NotJson extends Error {
  constructor(
    readonly path: (string | number)[],
    message: string,
  ) {
    super(message)
  }
}

/** True for `{}`-like objects (including null-prototype ones), false for Dates, Buffers, arrays. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

/** An MCP server's name: also the prefix of its tools' names (Anthropic allows 64 `[a-zA-Z0-9_-]`). */
export const McpServerName = z
  .string({ error: 'must be a server name' })
  .regex(/^[a-z0-9][a-z0-9_-]{0,29}$/, {
    error: 'must be 1–30 lowercase letters, digits, "-" or "_", starting with a letter or digit',
  })
  .describe('The MCP server\'s name, e.g. "docs"; its tools reach the agent as <name>__<tool>')

export const McpServers = z
  .array(McpServerName, { error: 'must be a list of MCP server names' })
  .max(20, { error: 'must name at most 20 servers' })
  .refine((names) => new Set(names).size === names.length, { error: 'must not name a server twice' })
  .nullable()
  .describe('MCP servers (by name) whose tools runs of this job may use; null or [] for none')

/** A self-made skill's name (`skills/<name>/SKILL.md`); environment definitions name skills the same way. */
export const SkillName = z
  .string({ error: 'must be a skill name' })
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, { error: 'must be a slug of lowercase letters, digits and dashes' })

export const JobSkills = z
  .array(SkillName, { error: 'must be a list of skill names' })
  .max(20, { error: 'must name at most 20 skills' })
  .refine((names) => new Set(names).size === names.length, { error: 'must not name a skill twice' })
  .nullable()
  .describe(
    'Approved self-made skills (by name, see the Skills page) whose text every run of this job gets ' +
      'in its system prompt; null or [] for none. Naming a skill that is not approved is refused.',
  )
