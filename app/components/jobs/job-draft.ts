import type { JobLike } from '#app/lib/job-types.ts'

/**
 * What the job forms edit, as strings and enums straight from the inputs. The server's zod
 * schema decides what is valid; the forms only hold the text so it is never lost.
 */
export type JobDraft = {
  instructions: string
  schedule: string
  timezone: string
  runAs: 'creator' | 'shared'
  catchUp: 'latest' | 'skip'
  overlap: 'skip' | 'queue'
  retries: string
  timeoutMinutes: string
}

/** The draft of an existing job, as it is stored. */
export function draftOf(job: JobLike): JobDraft {
  return {
    instructions: job.instructions,
    schedule: job.schedule,
    timezone: job.timezone,
    runAs: job.runAs,
    catchUp: job.catchUp,
    overlap: job.overlap,
    retries: String(job.retries),
    timeoutMinutes: String(job.timeoutMinutes),
  }
}

/** The fields of `draft` that differ from `base`: what a save sends (and all it may change). */
export function changedFields(base: JobDraft, draft: JobDraft): Partial<JobDraft> {
  const out: Partial<JobDraft> = {}
  for (const key of Object.keys(draft) as (keyof JobDraft)[]) {
    if (draft[key] !== base[key]) Object.assign(out, { [key]: draft[key] })
  }
  return out
}
