/**
 * Zod schemas for every job input. The UI's form action, the HTTP API, the job file and the
 * agent's manage-jobs tool all validate with these (invariant 5). Create and update derive from
 * the field registry (fields.ts); defaults apply on create only, so a PATCH never resets a field.
 */
import { z } from 'zod'
import { JobName, Scope } from './field-schemas.ts'
import { JOB_FIELDS, JOB_FIELD_KEYS, type JobFieldKey } from './fields.ts'

export * from './field-schemas.ts'
export {
  DEFINITION_KEYS,
  Extra,
  IDENTITY_KEYS,
  JOB_DEFAULTS,
  MANAGED_KEYS,
  RESERVED_KEYS,
  type JobDefinition,
} from './fields.ts'

type Spec<K extends JobFieldKey> = (typeof JOB_FIELDS)[K]
type CreateShape = {
  [K in JobFieldKey]: Spec<K> extends { required: true }
    ? Spec<K>['schema']
    : Spec<K> extends { default: unknown }
      ? z.ZodDefault<Spec<K>['schema']>
      : z.ZodOptional<Spec<K>['schema']>
}
type UpdateShape = { [K in JobFieldKey]: z.ZodOptional<Spec<K>['schema']> }

function createShape(): CreateShape {
  const shape: Record<string, z.ZodType> = {}
  for (const key of JOB_FIELD_KEYS) {
    const spec: { schema: z.ZodType; required?: true; default?: unknown } = JOB_FIELDS[key]
    shape[key] = spec.required
      ? spec.schema
      : 'default' in spec
        ? spec.schema.default(spec.default as never)
        : spec.schema.optional()
  }
  return shape as CreateShape
}

function updateShape(): UpdateShape {
  return Object.fromEntries(
    JOB_FIELD_KEYS.map((key) => [key, JOB_FIELDS[key].schema.optional()]),
  ) as UpdateShape
}

/** Input to create a job (POST /jobs, the agent tool, a new job file). Unknown keys are rejected. */
export const JobCreateInput = z
  .strictObject({ name: JobName, ...createShape(), scope: Scope.default('personal') })
  .describe('Create a recurring job that runs the instructions on the cron schedule')
export type JobCreateInput = z.infer<typeof JobCreateInput>

/** Input to change a job (PATCH /jobs/:id, the agent tool). Only the keys sent change. */
export const JobUpdateInput = z
  .strictObject(updateShape())
  .refine((input) => Object.values(input).some((v) => v !== undefined), {
    error: `Nothing to update: send at least one of ${JOB_FIELD_KEYS.join(', ')}`,
  })
  .describe('Change some fields of an existing job; fields left out keep their value')
export type JobUpdateInput = z.infer<typeof JobUpdateInput>

// Query strings send `?q=` for "no filter"; treat an empty value as absent.
const emptyAsAbsent = (v: unknown) => (v === '' ? undefined : v)

/** Filters for listing jobs (GET /jobs). Other query parameters are ignored. */
export const JobListQuery = z
  .object({
    scope: z
      .preprocess(
        emptyAsAbsent,
        z.enum(['personal', 'shared', 'all'], { error: 'must be personal, shared or all' }).optional(),
      )
      .default('all')
      .describe("Which jobs: personal (mine), shared (the organisation's) or all visible ones (default)"),
    q: z
      .preprocess(
        emptyAsAbsent,
        z
          .string({ error: 'must be a string' })
          .trim()
          .max(200, { error: 'must be at most 200 characters' })
          .optional(),
      )
      .optional()
      .describe('Text to search for in job names and instructions'),
    status: z
      .preprocess(
        emptyAsAbsent,
        z
          .enum(['enabled', 'paused', 'failing', 'running', 'denied'], {
            error: 'must be enabled, paused, failing, running or denied',
          })
          .optional(),
      )
      .optional()
      .describe(
        'Only jobs that are enabled, paused, failing (last run failed), running now, or denied (their last run had commands refused)',
      ),
  })
  .describe('Filters for listing jobs')
export type JobListQuery = z.infer<typeof JobListQuery>
