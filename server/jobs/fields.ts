/**
 * The job-field registry: every field a person writes about a job, declared once. The API
 * schemas (schema.ts), the job file (job-file.ts), the audit diff (audit.ts), the change plan,
 * the form (sent down by the page loaders) and the agent tool's input all derive from it, so a
 * new field is one entry here plus its column (docs/jobs.md, "Add a job field").
 */
import { z } from 'zod'
import {
  AgentMayEditJobs,
  CatchUp,
  Enabled,
  EnvironmentRef,
  Harness,
  HARNESS_IDS,
  HARNESS_LABELS,
  Instructions,
  JobSkills,
  MaxCostUsd,
  McpServers,
  Overlap,
  Retries,
  RunAs,
  Schedule,
  TimeoutMinutes,
  Timezone,
  toJsonValue,
} from './field-schemas.ts'
import { AlertAfterFailures, ExpectSuccessWithin, Notify } from './delivery-fields.ts'

/** How a field is edited on the job forms. `custom` fields have their own widget (job-fields.tsx). */
export type FormWidget =
  | { widget: 'custom' }
  | {
      widget: 'select'
      label: string
      options: readonly (readonly [value: string, label: string])[]
      hint?: string
    }
  | { widget: 'number'; label: string; min?: number; max?: number; step?: number; hint?: string }
  /** One line of text (a name); empty = null where the field may be null. */
  | { widget: 'text'; label: string; hint?: string }
  /** A list of names typed as one line, split at commas or spaces; empty = null, which the read-only view calls `unset`. */
  | { widget: 'list'; label: string; hint?: string; unset: string }

/** What the registry says about one field. */
export type FieldSpec = {
  schema: z.ZodType
  /** The value a new job gets when its creator leaves it out; none means required (or, for timezone, the service's call). */
  default?: unknown
  /** On create: must be given. */
  required?: true
  /** Where the job file keeps it: a frontmatter key, the Markdown body, or the other keys. */
  file: 'frontmatter' | 'body' | 'extra'
  /** How the form sends it (all form values are text). */
  kind: 'text' | 'number' | 'boolean' | 'json'
  /** Its name in the audit trail. */
  audit: string
  /** On the create and edit forms, with the text the new-job form starts from; absent = not on the forms. */
  form?: FormWidget & { initial: string; section: 'main' | 'when' | 'advanced' }
  /** Whether a run reads it (the run's view of the job, see runs/executor types). */
  run: boolean
  /**
   * Part of what a run's model is told: text it reads (the instructions, the skills' text) or the
   * tools whose descriptions and results it reads (MCP servers). Whoever else changes it becomes
   * the job's creator, so a job never runs someone's words as another person (invariant 4).
   */
  prompt?: true
  /** Whether the agent's manage-jobs tool may set it. */
  tool: boolean
}

/** How many keys `extra` may have, and how long each may be. */
export const MAX_EXTRA_KEYS = 50
export const MAX_EXTRA_KEY_LENGTH = 64

// Keys `extra` may not use; filled below from the registry and the server-set keys.
const reserved = new Set<string>()

export const Extra = z
  .record(z.string(), z.unknown())
  .superRefine((extra, ctx) => {
    const keys = Object.keys(extra)
    if (keys.length > MAX_EXTRA_KEYS) {
      ctx.addIssue({ code: 'custom', path: [], message: `must have at most ${MAX_EXTRA_KEYS} keys` })
      return
    }
    // Only the body limit bounded a key, which the answer names: a long one is named by its start.
    const long = keys.find((k) => k.length > MAX_EXTRA_KEY_LENGTH)
    if (long !== undefined) {
      const message = `a key must be at most ${MAX_EXTRA_KEY_LENGTH} characters`
      ctx.addIssue({ code: 'custom', path: [`${long.slice(0, 40)}…`], message })
      return
    }
    const key = keys.find((k) => reserved.has(k))
    if (key !== undefined) {
      ctx.addIssue({ code: 'custom', path: [key], message: 'is a reserved key, not an extra one' })
      return
    }
    const json = toJsonValue(extra)
    if (!json.ok) ctx.addIssue({ code: 'custom', path: json.path, message: json.message })
  })
  .describe('Other frontmatter keys of the job file, kept as they are (any JSON values)')

/** Every definition field, in the order the file, the trail and the API list them. */
export const JOB_FIELDS = {
  schedule: {
    schema: Schedule,
    required: true,
    file: 'frontmatter',
    kind: 'text',
    audit: 'schedule',
    form: { widget: 'custom', initial: '0 9 * * *', section: 'when' },
    run: true,
    tool: true,
  },
  timezone: {
    schema: Timezone,
    file: 'frontmatter',
    kind: 'text',
    audit: 'time zone',
    // Empty means "not picked": the person's saved zone, else the browser's.
    form: { widget: 'custom', initial: '', section: 'when' },
    run: true,
    tool: true,
  },
  enabled: {
    schema: Enabled,
    default: true,
    file: 'frontmatter',
    kind: 'boolean',
    audit: 'enabled',
    run: false,
    tool: true,
  },
  runAs: {
    schema: RunAs,
    default: 'creator',
    file: 'frontmatter',
    kind: 'text',
    audit: 'runs as',
    form: { widget: 'custom', initial: 'creator', section: 'main' },
    run: true,
    tool: true,
  },
  instructions: {
    schema: Instructions,
    required: true,
    file: 'body',
    kind: 'text',
    audit: 'prompt',
    form: { widget: 'custom', initial: '', section: 'main' },
    run: true,
    prompt: true,
    tool: true,
  },
  catchUp: {
    schema: CatchUp,
    default: 'latest',
    file: 'frontmatter',
    kind: 'text',
    audit: 'catch-up',
    form: {
      widget: 'select',
      label: 'After downtime',
      options: [
        ['latest', 'Run the latest missed slot once'],
        ['skip', 'Skip missed slots'],
      ],
      initial: 'latest',
      section: 'advanced',
    },
    run: false,
    tool: false,
  },
  overlap: {
    schema: Overlap,
    default: 'skip',
    file: 'frontmatter',
    kind: 'text',
    audit: 'overlap',
    form: {
      widget: 'select',
      label: 'If still running',
      options: [
        ['skip', 'Skip the new slot'],
        ['queue', 'Queue it after the running one'],
      ],
      initial: 'skip',
      section: 'advanced',
    },
    run: false,
    tool: false,
  },
  retries: {
    schema: Retries,
    default: 0,
    file: 'frontmatter',
    kind: 'number',
    audit: 'retries',
    form: {
      widget: 'number',
      label: 'Retries',
      min: 0,
      max: 5,
      hint: '0–5, backoff 30 s, 1, 5, 15, 60 min',
      initial: '0',
      section: 'advanced',
    },
    run: true,
    tool: false,
  },
  timeoutMinutes: {
    schema: TimeoutMinutes,
    default: 10,
    file: 'frontmatter',
    kind: 'number',
    audit: 'timeout',
    form: {
      widget: 'number',
      label: 'Timeout (minutes)',
      min: 1,
      max: 60,
      hint: '1–60',
      initial: '10',
      section: 'advanced',
    },
    run: true,
    tool: false,
  },
  maxCostUsd: {
    schema: MaxCostUsd,
    default: null,
    file: 'frontmatter',
    kind: 'number',
    audit: 'cost cap per run',
    form: {
      widget: 'number',
      label: 'Cost cap per run (USD)',
      min: 0.01,
      step: 0.01,
      hint: 'empty: no cap; a run over it stops after that step',
      initial: '',
      section: 'advanced',
    },
    run: true,
    tool: true,
  },
  environment: {
    schema: EnvironmentRef,
    default: null,
    file: 'frontmatter',
    kind: 'text',
    audit: 'environment',
    form: {
      widget: 'text',
      label: 'Environment',
      hint: 'an environment’s name (Environments page); runs work in its folder, and a coding agent needs one',
      initial: '',
      section: 'advanced',
    },
    run: true,
    tool: true,
  },
  harness: {
    schema: Harness,
    default: 'builtin',
    file: 'frontmatter',
    kind: 'text',
    audit: 'harness',
    form: {
      widget: 'select',
      label: 'Agent',
      options: HARNESS_IDS.map((id) => [id, HARNESS_LABELS[id]] as const),
      hint: 'a coding agent (Claude Code, OpenCode) works in the job’s environment',
      initial: 'builtin',
      section: 'advanced',
    },
    run: true,
    tool: true,
  },
  agentMayEditJobs: {
    schema: AgentMayEditJobs,
    default: false,
    file: 'frontmatter',
    kind: 'boolean',
    audit: 'agent may edit jobs',
    // The run decides from it what its tools may do; the agent itself may never set it.
    run: true,
    tool: false,
  },
  notify: {
    schema: Notify,
    default: null,
    file: 'frontmatter',
    kind: 'json',
    audit: 'notify',
    run: false,
    tool: true,
  },
  alertAfterFailures: {
    schema: AlertAfterFailures,
    default: 2,
    file: 'frontmatter',
    kind: 'number',
    audit: 'alert after failures',
    form: {
      widget: 'number',
      label: 'Alert after failures',
      min: 1,
      max: 10,
      hint: 'failed runs in a row before the creator (and, for a shared job, the admins) hear of it',
      initial: '2',
      section: 'advanced',
    },
    run: false,
    tool: true,
  },
  expectSuccessWithin: {
    schema: ExpectSuccessWithin,
    default: null,
    file: 'frontmatter',
    kind: 'text',
    audit: 'expect success within',
    run: false,
    tool: true,
  },
  mcp: {
    schema: McpServers,
    default: null,
    file: 'frontmatter',
    kind: 'json',
    audit: 'MCP servers',
    form: {
      widget: 'list',
      label: 'MCP servers',
      hint: 'names, comma-separated; empty: none (runs get only the servers named here)',
      unset: 'None',
      initial: '',
      section: 'advanced',
    },
    run: true,
    prompt: true,
    tool: false,
  },
  skills: {
    schema: JobSkills,
    default: null,
    file: 'frontmatter',
    kind: 'json',
    audit: 'skills',
    form: {
      widget: 'list',
      label: 'Skills',
      hint: 'approved skills (Skills page), comma-separated; each run gets their text',
      unset: 'None',
      initial: '',
      section: 'advanced',
    },
    // Only approved skills can be named (writes.ts asks skill-refs.ts); the run leaves out any that lost approval since.
    run: true,
    prompt: true,
    tool: true,
  },
  extra: {
    schema: Extra,
    default: {},
    file: 'extra',
    kind: 'json',
    audit: 'extra keys',
    run: false,
    tool: false,
  },
} as const satisfies Record<string, FieldSpec>

export type JobFieldKey = keyof typeof JOB_FIELDS
type Spec<K extends JobFieldKey> = (typeof JOB_FIELDS)[K]

/** Everything a person writes about a job, as stored (invariant 1: no run state here). */
export type JobDefinition = { [K in JobFieldKey]: z.output<Spec<K>['schema']> }

/** The keys of the registry, in order. */
export const JOB_FIELD_KEYS = Object.keys(JOB_FIELDS) as JobFieldKey[]
/** One field's entry, widened to the common shape (for code that walks every field). */
export const specOf = (key: JobFieldKey): FieldSpec => JOB_FIELDS[key]
const keysWhere = (test: (spec: FieldSpec) => boolean) => JOB_FIELD_KEYS.filter((key) => test(specOf(key)))

/** Frontmatter keys a person writes, in the order the job file shows them. */
export const DEFINITION_KEYS = keysWhere((s) => s.file === 'frontmatter')
/** Set by the server from the session (invariant 4); a file may repeat them but not change them. */
export const IDENTITY_KEYS = ['createdBy', 'orgId'] as const
/** Written by the scheduler only; not in a job file, and ignored when a submitted file has them. */
export const MANAGED_KEYS = ['lastRun', 'lastStatus', 'lastError', 'nextRun'] as const
// `at` and `every` are spellings of `schedule` (schedule-keys.ts).
for (const key of [...DEFINITION_KEYS, ...IDENTITY_KEYS, ...MANAGED_KEYS, 'instructions', 'at', 'every'])
  reserved.add(key)
/** Keys `extra` may not use: they would collide with a real field when the file is rendered. */
export const RESERVED_KEYS: ReadonlySet<string> = reserved

type DefaultKey = { [K in JobFieldKey]: Spec<K> extends { default: unknown } ? K : never }[JobFieldKey]
/** What a job gets when its creator does not say (timezone is the service's call: user zone, else UTC). */
export const JOB_DEFAULTS = Object.fromEntries(
  // Not extra: its default is an object every job would share.
  keysWhere((s) => 'default' in s)
    .filter((k) => k !== 'extra')
    .map((k) => [k, specOf(k).default]),
) as { [K in Exclude<DefaultKey, 'extra'>]: Spec<K>['default'] }

/** The definition fields of a stored job (or of anything that carries them). */
export function definitionOf(job: JobDefinition): JobDefinition {
  // A plain loop: this runs for every row of every jobs list (fromEntries of a mapped array cost
  // three times as much).
  const definition: Record<string, unknown> = {}
  for (const key of JOB_FIELD_KEYS) definition[key] = job[key]
  return definition as JobDefinition
}

/** Optional fields whose default is null ("no limit"): left out of a file, or emptied in a form, they are unset. */
export const CLEARABLE_KEYS: readonly string[] = keysWhere((s) => s.default === null)

/** The fields a run reads, for the run's view of the job (runs/executor types and selectRunJob). */
export type JobRunKey = { [K in JobFieldKey]: Spec<K> extends { run: true } ? K : never }[JobFieldKey]
export const RUN_KEYS = keysWhere((s) => s.run) as JobRunKey[]
/** The fields the agent's manage-jobs tool may set on create and update. */
export const TOOL_KEYS = keysWhere((s) => s.tool)
/** What a run's model is told (see {@link FieldSpec.prompt}): whoever changes it becomes the creator. */
export const PROMPT_KEYS = keysWhere((s) => s.prompt === true)

/** The fields the job forms edit. */
export type JobFormKey = { [K in JobFieldKey]: Spec<K> extends { form: object } ? K : never }[JobFieldKey]
/** One form field as the page loaders send it down. */
export type JobFormField = FormWidget & {
  key: JobFormKey
  initial: string
  section: 'main' | 'when' | 'advanced'
}
/**
 * The form's fields, the audit trail's names, and the fields whose change by someone else makes
 * them the job's creator (the page says so before saving), for the job pages.
 */
export type JobFormSpec = {
  fields: JobFormField[]
  labels: Record<string, string>
  promptKeys: readonly JobFieldKey[]
}

/** What the new-job and job pages need to render the form and the trail. */
export function jobFormSpec(): JobFormSpec {
  const fields = JOB_FIELD_KEYS.flatMap((key) => {
    const spec = specOf(key)
    return spec.form ? [{ key: key as JobFormKey, ...spec.form }] : []
  })
  const labels: Record<string, string> = { name: 'name', scope: 'scope', createdBy: 'creator' }
  for (const key of JOB_FIELD_KEYS) labels[key] = JOB_FIELDS[key].audit
  return { fields, labels, promptKeys: PROMPT_KEYS }
}

/** Fields the forms edit as a list of names in one line of text (the `list` widget). */
export const LIST_KEYS: readonly string[] = keysWhere((s) => s.form?.widget === 'list')

/** How form text becomes input for each field ("number", "boolean"); other fields stay text. */
export const FORM_KINDS: Record<string, FieldSpec['kind']> = Object.fromEntries(
  JOB_FIELD_KEYS.map((key) => [key, JOB_FIELDS[key].kind]),
)
