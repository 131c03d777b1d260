/**
 * The manage-jobs tool's input. Field docs come from the jobs schemas (one contract: invariant 5);
 * the values are checked by the jobs service with those same schemas (JobCreateInput,
 * JobUpdateInput), so the model gets the API's own messages ("schedule: hour: 25 is out of range").
 * Types here stay loose on purpose: a strict tool schema would reject bad input before the service
 * could explain what is wrong with it.
 */
import { z } from 'zod'
import { Enabled, Instructions, JobName, RunAs, Schedule, Scope, Timezone } from '../../jobs/schema.ts'

const doc = (schema: z.ZodType, extra = '') => `${schema.description ?? ''}${extra}`

export const ManageJobsInput = z.object({
  action: z
    .enum(['create', 'list', 'update', 'delete'])
    .describe(
      'create: a new job (never replaces one); list: the jobs the person can see; update: change some ' +
        'fields of a job; delete: remove a job (the person must confirm in chat; refused in unattended runs)',
    ),
  name: z
    .string()
    .optional()
    .describe(
      doc(JobName, '. Required for create; for update and delete it names the job (or give id instead)'),
    ),
  id: z.string().optional().describe('update/delete: the job id from list, instead of name'),
  scope: z
    .enum(['personal', 'shared'])
    .optional()
    .describe(
      doc(
        Scope,
        '. create: default personal. update/delete: which job when a personal and a shared one share the name',
      ),
    ),
  schedule: z.string().optional().describe(doc(Schedule, '. Required for create')),
  timezone: z.string().optional().describe(doc(Timezone)),
  instructions: z.string().optional().describe(doc(Instructions, '. Required for create')),
  runAs: z.enum(['creator', 'shared']).optional().describe(doc(RunAs)),
  enabled: z.boolean().optional().describe(doc(Enabled)),
  query: z.string().optional().describe('list: only jobs whose name or instructions contain this text'),
})
export type ManageJobsInput = z.infer<typeof ManageJobsInput>

/** The definition fields an update may carry (scope, name and id only select the job). */
export const UPDATE_FIELDS = ['schedule', 'timezone', 'instructions', 'runAs', 'enabled'] as const
