/**
 * The manage-jobs tool's input. The job fields it may set and their docs come from the field
 * registry (jobs/fields.ts, `tool: true`); the values are checked by the jobs service with the
 * API's own schemas, so the model gets the API's messages ("schedule: hour: 25 is out of range").
 * Types here stay loose on purpose: a strict tool schema would reject bad input before the service
 * could explain what is wrong with it.
 */
import { z } from 'zod'
import { JobName, Scope } from '../../jobs/field-schemas.ts'
import { JOB_FIELDS, TOOL_KEYS } from '../../jobs/fields.ts'
import { PageCursor, PageLimit } from '../../lib/paging.ts'

const doc = (schema: z.ZodType, extra = '') => `${schema.description ?? ''}${extra}`
const lowerFirst = (text = '') => text.charAt(0).toLowerCase() + text.slice(1)

// Enums keep their values (the model needs to see them); other kinds stay loose.
function looseField(key: (typeof TOOL_KEYS)[number]): z.ZodType {
  const spec: { schema: z.ZodType; kind: string; required?: true; default?: unknown } = JOB_FIELDS[key]
  const base =
    spec.schema instanceof z.ZodEnum
      ? z.enum(spec.schema.options as [string, ...string[]])
      : spec.kind === 'number'
        ? z.number()
        : spec.kind === 'boolean'
          ? z.boolean()
          : z.string()
  return (spec.default === null ? base.nullable() : base)
    .optional()
    .describe(doc(spec.schema, spec.required ? '. Required for create' : ''))
}

type ToolFields = { [K in (typeof TOOL_KEYS)[number]]?: unknown }

export const ManageJobsInput = z.object({
  action: z
    .enum(['create', 'list', 'get', 'update', 'delete', 'preview'])
    .describe(
      'create: a new job (never replaces one); list: the jobs the person can see; get: one job in full ' +
        '(by name or id); update: change some ' +
        'fields of a job; delete: remove a job (the person must confirm in chat; refused in unattended runs); ' +
        'preview: check schedule (or at/every) in timezone without saving: its meaning in words and next fire times',
    ),
  name: z
    .string()
    .optional()
    .describe(
      doc(JobName, '. Required for create; for get, update and delete it names the job (or give id instead)'),
    ),
  id: z.string().optional().describe('get/update/delete: the job id from list, instead of name'),
  scope: z
    .enum(['personal', 'shared'])
    .optional()
    .describe(
      doc(
        Scope,
        '. create: default personal. get/update/delete: which job when a personal and a shared one share the name',
      ),
    ),
  ...(Object.fromEntries(TOOL_KEYS.map((key) => [key, looseField(key)])) as Record<
    keyof ToolFields,
    z.ZodOptional<z.ZodUnknown>
  >),
  at: z
    .string()
    .optional()
    .describe(
      'Instead of schedule, for a one-off: the local date and time "YYYY-MM-DDTHH:MM" in the job\'s time ' +
        'zone (e.g. "remind me tomorrow at 9" → tomorrow\'s date at 09:00). The job runs once, then pauses itself',
    ),
  every: z
    .string()
    .optional()
    .describe('Instead of schedule, a fixed interval: "90m", "2h", "1d" or "1h30m" (1 minute to 31 days)'),
  query: z.string().optional().describe('list: only jobs whose name or instructions contain this text'),
  // The jobs list's own page (jobs/list.ts): a list answers one page and the next one's cursor.
  limit: z
    .number()
    .optional()
    .describe(`list: ${lowerFirst(PageLimit.description)}`),
  cursor: z
    .string()
    .optional()
    .describe(
      `list: ${lowerFirst(PageCursor.description)} (a list's answer has it when there are more jobs)`,
    ),
})
export type ManageJobsInput = z.infer<typeof ManageJobsInput>

/**
 * The definition fields a create or update may carry (scope, name and id only select the job);
 * `at`/`every` are spellings of schedule, folded by the jobs service (jobs/schedule-keys.ts).
 */
export const UPDATE_FIELDS = [...TOOL_KEYS, 'at', 'every'] as const
