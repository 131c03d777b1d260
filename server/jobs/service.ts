/**
 * Jobs: the use cases every door calls (HTTP API, pages, job files, the agent's manage-jobs tool).
 * Reads filter with the visibility SQL; writes go through writes.ts, the one door (invariant 5).
 */
import { and, eq } from 'drizzle-orm'
import { canEditJob } from '../access/rules.ts'
import { jobsVisibleTo } from '../access/visibility.ts'
import type { Caller } from '../auth/caller.ts'
import { jobs } from '../db/schema/index.ts'
import { badRequest, forbidden, notFound } from '../lib/errors.ts'
import type { JobListQuery } from './schema.ts'
import { findJobRecord, scopeFilter, selectAuditRecords, selectJobRecords } from './store.ts'
import { toJobView, type JobView } from './views.ts'
import { changeJobFrom, createJobFrom, removeJob } from './writes.ts'

export type { JobView } from './views.ts'
export { listJobBriefs, listJobPage, personalJobNamesAmong, type JobBrief, type JobPage } from './list.ts'
export { deleteJobFile, readJobFile, writeJobFile } from './job-files.ts'
export { previewSchedule, type SchedulePreview } from './preview.ts'

/** One entry of a job's audit trail. `changes` maps each field to `{ from, to }`. */
export type JobAuditEntry = {
  id: number
  action: string
  actor: { id: string; email: string; name: string } | null
  changes: Record<string, { from: unknown; to: unknown }> | null
  note: string | null
  at: string
}

/**
 * The job named `name` the caller may see, in `scope` when a personal and a shared job share the
 * name: 404 when there is none, 400 naming `scope` when there are two. A lookup by the name itself
 * (the unique key), not a search: names are slugs, and a search also reads every instructions.
 */
export async function findJobNamed(
  caller: Caller,
  name: string,
  scope: JobListQuery['scope'] = 'all',
): Promise<JobView> {
  const records = await selectJobRecords(
    and(jobsVisibleTo(caller), eq(jobs.name, name), scopeFilter(scope, caller.userId)),
  )
  if (records.length === 0) throw notFound(`No job named ${name} that you can see`)
  if (records.length > 1) {
    throw badRequest(`Both a personal and a shared job are named ${name}: say which scope`, 'scope')
  }
  return toJobView(records[0]!, caller)
}

/** One job the caller may see; 404 otherwise (also for another organisation's jobs). */
export async function getJob(caller: Caller, id: string): Promise<JobView> {
  const record = await findJobRecord(and(eq(jobs.id, id), jobsVisibleTo(caller))!)
  if (!record) throw notFound(`No job with id ${id}`)
  return toJobView(record, caller)
}

/** The job, if the caller may change it: 404 when they cannot see it, 403 when they only see it. */
export async function assertCanEditJob(caller: Caller, id: string): Promise<JobView> {
  const job = await getJob(caller, id)
  if (!canEditJob(caller, job)) {
    throw forbidden('Only the creator of this shared job and organisation admins may change it')
  }
  return job
}

/**
 * Creates a job (a JobCreateInput) owned by the caller in their active organisation. The timezone
 * defaults to the caller's, else UTC. 409 `name` when the name is taken in that scope.
 */
export function createJob(caller: Caller, input: unknown): Promise<JobView> {
  return createJobFrom(caller, input)
}

/**
 * Changes some fields of a job (a JobUpdateInput). With `ifMatch`, a different stored version is a
 * 409. When someone other than the creator changes the instructions, they become the creator (the
 * audit trail says so). `enabled: true` also lifts a suspension the system set.
 */
export function updateJob(
  caller: Caller,
  id: string,
  input: unknown,
  opts: { ifMatch?: number } = {},
): Promise<JobView> {
  return changeJobFrom(caller, id, input, { ifMatch: opts.ifMatch })
}

/**
 * Pauses or resumes a job. Resuming lifts a suspension, resets the failure count and schedules the
 * next run from now (missed slots while paused are not caught up).
 */
export function setJobEnabled(
  caller: Caller,
  id: string,
  enabled: boolean,
  opts: { ifMatch?: number } = {},
): Promise<JobView> {
  return changeJobFrom(caller, id, { enabled }, { ifMatch: opts.ifMatch })
}

/** Deletes a job and its run history; the audit trail keeps a "delete" entry. */
export function deleteJob(caller: Caller, id: string, opts: { ifMatch?: number } = {}): Promise<void> {
  return removeJob(caller, id, { ifMatch: opts.ifMatch })
}

/** The audit trail of a job the caller may see, newest first. */
export async function listJobAudit(caller: Caller, id: string): Promise<JobAuditEntry[]> {
  await getJob(caller, id)
  return readJobAuditUnchecked(id)
}

/**
 * A job's audit trail with no access check: only for a caller that checks, in the same request,
 * that the caller may see the job, and shows nothing if not (the job page reads both at once).
 */
export async function readJobAuditUnchecked(id: string): Promise<JobAuditEntry[]> {
  const entries = await selectAuditRecords(id)
  return entries.map((entry) => ({ ...entry, at: entry.at.toISOString() }))
}
