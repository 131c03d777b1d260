/**
 * Who may see and change a job: the truth table of docs/architecture.md ("Scope and access") as pure functions. The SQL
 * filter in visibility.ts must agree with {@link canViewJob}; one table (truth-table.ts) tests both.
 */
import { isOrgAdmin as isAdmin, type Caller } from './caller.ts'

/** The facts about a job that access depends on. `createdBy` is a user id or a `{ id }` (a JobView). */
export type JobAccessFacts = {
  orgId: string
  scope: 'personal' | 'shared'
  createdBy: string | { id: string }
}

/** The facts about a caller that access depends on. */
export type AccessCaller = Pick<Caller, 'userId' | 'orgId' | 'role'>

const creatorIdOf = (job: JobAccessFacts) =>
  typeof job.createdBy === 'string' ? job.createdBy : job.createdBy.id

/** True when the caller wrote the job's current instructions (and so is its creator). */
function isJobCreator(caller: AccessCaller, job: JobAccessFacts): boolean {
  return creatorIdOf(job) === caller.userId
}

/**
 * May the caller see the job (list it, read it, read its history)? Only inside the caller's active
 * organisation: a personal job by its creator alone, a shared job by every member.
 */
export function canViewJob(caller: AccessCaller, job: JobAccessFacts): boolean {
  if (job.orgId !== caller.orgId) return false
  return job.scope === 'shared' || isJobCreator(caller, job)
}

/**
 * May the caller change the job (update, pause, resume, run now, delete)? Its creator, and for a
 * shared job also the organisation's admins and owners. Everyone else who can see it may not (403);
 * those who cannot see it get a 404 (see {@link canViewJob}).
 */
export function canEditJob(caller: AccessCaller, job: JobAccessFacts): boolean {
  if (!canViewJob(caller, job)) return false
  return isJobCreator(caller, job) || (job.scope === 'shared' && isAdmin(caller))
}

/**
 * May the caller make the job spend the organisation's model key (`runAs: shared`)? Only on a
 * shared job of their own organisation, and only as an admin or owner.
 */
export function canUseSharedKey(caller: AccessCaller, job: Pick<JobAccessFacts, 'orgId' | 'scope'>): boolean {
  return job.scope === 'shared' && job.orgId === caller.orgId && isAdmin(caller)
}
