/**
 * Jobs as files: `jobs/<name>.md` in the personal or shared workspace. Reading renders the job;
 * writing parses the file and goes through the same write path as every other door (invariant 5).
 */
import { and, eq } from 'drizzle-orm'
import { jobsVisibleTo } from '../access/visibility.ts'
import type { Caller } from '../auth/caller.ts'
import { jobs } from '../db/schema/index.ts'
import { forbidden, notFound } from '../lib/errors.ts'
import { checkInput, parseInput } from '../lib/validate.ts'
import { z } from 'zod'
import { parseJobFile, renderJobFile } from './job-file.ts'
import { JOB_DEFAULTS, JobName } from './schema.ts'
import { findJobRecord } from './store.ts'
import { toJobFileView, toJobView, type JobView } from './views.ts'
import { changeJobFrom, createJobFrom, removeJob } from './writes.ts'

export type JobScope = 'personal' | 'shared'

const FileName = z.object({ name: JobName })

/** The job named `name` in the caller's `scope`: their own personal one, or their organisation's shared one. */
async function findJobByName(caller: Caller, scope: JobScope, name: string): Promise<JobView | null> {
  parseInput(FileName, { name })
  const mine = scope === 'personal' ? eq(jobs.createdBy, caller.userId) : undefined
  const where = and(jobsVisibleTo(caller), eq(jobs.scope, scope), eq(jobs.name, name), mine)!
  const record = await findJobRecord(where)
  return record ? toJobView(record, caller) : null
}

const fileLabel = (scope: JobScope, name: string) => `${scope}/jobs/${name}.md`

/** The job file's text and the job behind it; 404 when there is no such job the caller can see. */
export async function readJobFile(
  caller: Caller,
  scope: JobScope,
  name: string,
): Promise<{ text: string; job: JobView }> {
  const job = await findJobByName(caller, scope, name)
  if (!job) throw notFound(`No job file ${fileLabel(scope, name)}`)
  return { text: renderJobFile(toJobFileView(job)), job }
}

/**
 * Creates or replaces a job from its file. A new file makes a job owned by the caller. On an
 * existing job the file is the whole definition: keys left out go back to their defaults, except
 * timezone, which stays. Run state and identity in the file are checked or ignored, never taken.
 * With `ifMatch`, the job must exist (404) at that version (409).
 */
export async function writeJobFile(
  caller: Caller,
  scope: JobScope,
  name: string,
  text: string,
  opts: { ifMatch?: number } = {},
): Promise<{ job: JobView; created: boolean }> {
  // A bad name can name no job: read the file anyway, so its 400 names every bad field at once.
  if (!checkInput(FileName, { name }).ok)
    parseJobFile(text, { name, truth: { createdByEmail: caller.email, orgId: caller.orgId } })
  const existing = await findJobByName(caller, scope, name)
  const note = `Saved as ${fileLabel(scope, name)}`
  if (!existing) {
    if (opts.ifMatch !== undefined) throw notFound(`No job file ${fileLabel(scope, name)} to update`)
    const parsed = parseJobFile(text, { name, truth: { createdByEmail: caller.email, orgId: caller.orgId } })
    const job = await createJobFrom(caller, { name, scope, ...parsed }, { note })
    return { job, created: true }
  }
  // Refuse before reading the file, so a caller who may not edit learns nothing from its errors.
  if (!existing.canEdit)
    throw forbidden('Only the creator of this shared job and organisation admins may change it')
  const truth = { createdByEmail: existing.createdBy.email, orgId: existing.orgId }
  const parsed = parseJobFile(text, { name, truth })
  const replacement = { ...JOB_DEFAULTS, timezone: existing.timezone, ...parsed }
  const job = await changeJobFrom(caller, existing.id, replacement, {
    ifMatch: opts.ifMatch,
    note,
    liftsSuspension: false,
  })
  return { job, created: false }
}

/** Deletes the job behind a job file (same rules as deleting the job). */
export async function deleteJobFile(
  caller: Caller,
  scope: JobScope,
  name: string,
  opts: { ifMatch?: number } = {},
): Promise<void> {
  const job = await findJobByName(caller, scope, name)
  if (!job) throw notFound(`No job file ${fileLabel(scope, name)}`)
  await removeJob(caller, job.id, { ifMatch: opts.ifMatch, note: `Deleted as ${fileLabel(scope, name)}` })
}
