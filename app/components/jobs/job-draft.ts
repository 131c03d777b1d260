import type { JobFormField, JobFormKey, JobLike } from '#app/lib/job-types.ts'

/**
 * What the job forms edit, as the text of their inputs, one entry per form field the loader sends
 * (server/jobs/fields.ts). The server's zod schema decides what is valid; the forms only hold the
 * text so it is never lost.
 */
export type JobDraft = Record<JobFormKey, string>

/** The draft a new job starts from: each field's initial text. */
export function initialDraft(fields: readonly JobFormField[]): JobDraft {
  return Object.fromEntries(fields.map((f) => [f.key, f.initial])) as JobDraft
}

/** The draft of an existing job, as it is stored. */
export function draftOf(job: JobLike, fields: readonly JobFormField[]): JobDraft {
  return Object.fromEntries(fields.map((f) => [f.key, formText(job[f.key])])) as JobDraft
}

/** A stored value as the text of its input; a list of names as one comma-separated line. */
export function formText(value: unknown): string {
  return Array.isArray(value) ? value.join(', ') : String(value ?? '')
}

/** The fields of `draft` that differ from `base`: what a save sends (and all it may change). */
export function changedFields(base: JobDraft, draft: JobDraft): Partial<JobDraft> {
  const out: Partial<JobDraft> = {}
  for (const key of Object.keys(draft) as JobFormKey[]) {
    if (draft[key] !== base[key]) out[key] = draft[key]
  }
  return out
}
