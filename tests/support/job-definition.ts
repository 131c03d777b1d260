/**
 * One job definition with a value for every field, none of them the default, so a field that a
 * surface drops (file, API input, audit, form) shows as a difference. Shared by the field
 * registry's tests and the job form's.
 */
import type { JobDefinition } from '#server/jobs/fields.ts'

export const SAMPLE_DEFINITION: JobDefinition = {
  schedule: '*/5 9-17 * * 1-5',
  timezone: 'Asia/Kolkata',
  enabled: false,
  runAs: 'shared',
  instructions: 'Post the numbers.',
  catchUp: 'skip',
  overlap: 'queue',
  retries: 3,
  timeoutMinutes: 25,
  maxCostUsd: 0.25,
  environment: 'reports',
  harness: 'claude-code',
  agentMayEditJobs: true,
  notify: { onSuccess: ['webhook:ops-feed'], onFailure: ['email:ana@example.com'] },
  alertAfterFailures: 3,
  expectSuccessWithin: '26h',
  mcp: ['docs', 'crm'],
  skills: ['signup-report'],
  extra: { owner: 'growth', tags: ['a', 'b'] },
}
