/** Server side of the jobs list page (app/routes/_app.jobs._index.tsx). */
import type { Caller } from '../auth/caller.ts'
import { badRequest } from '../lib/errors.ts'
import { runForm } from './forms.ts'
import { definitionOf } from '../jobs/fields.ts'
import { createJob, getJob, listJobPage, setJobEnabled } from '../jobs/service.ts'
import { conflict, HttpError } from '../lib/errors.ts'
import { listStandingOffers } from '../jobs/offer-store.ts'
import { isOrgAdmin } from '../access/caller.ts'
import { listRunsAtAGlance } from '../runs/store.ts'
import { orRouteError } from './page-errors.ts'
import type { JobView } from '../jobs/views.ts'

/**
 * What a row of the jobs list shows and its switch and menu act on. The page's loader data is
 * serialised into its HTML for hydration, so it carries these and not the whole job (half the
 * fields: the run policy, limits, integrations, timestamps).
 */
export type JobRow = Pick<
  JobView,
  | 'id'
  | 'name'
  | 'scope'
  | 'createdBy'
  | 'schedule'
  | 'timezone'
  | 'enabled'
  | 'instructions'
  | 'description'
  | 'nextRun'
  | 'lastRun'
  | 'lastStatus'
  | 'lastError'
  | 'lastDeniedCommands'
  | 'suspendedReason'
  | 'canEdit'
>

function toJobRow(job: JobView): JobRow {
  return {
    id: job.id,
    name: job.name,
    scope: job.scope,
    createdBy: job.createdBy,
    schedule: job.schedule,
    timezone: job.timezone,
    enabled: job.enabled,
    instructions: job.instructions,
    description: job.description,
    nextRun: job.nextRun,
    lastRun: job.lastRun,
    lastStatus: job.lastStatus,
    lastError: job.lastError,
    lastDeniedCommands: job.lastDeniedCommands,
    suspendedReason: job.suspendedReason,
    canEdit: job.canEdit,
  }
}

/**
 * One page of the visible jobs for a list query (`{ scope, q, status, sort, dir, cursor }`,
 * validated by the service), with the total and the next page's cursor.
 */
export async function loadJobsList(caller: Caller, query: Record<string, string | undefined>) {
  const page = await orRouteError(listJobPage(caller, query))
  // The jobs are the caller's visible ones, so their runs are too: one query for every row's dots.
  const ids = page.jobs.map((j) => j.id)
  const [{ recent, activeJobIds: active }, offers] = await Promise.all([
    listRunsAtAGlance(ids, RECENT_RUNS),
    // A job offered to the caller (or, to an admin, to anyone) says so in its row (decision 0512).
    listStandingOffers(ids, { userId: caller.userId, isAdmin: isOrgAdmin(caller) }),
  ])
  const recentRuns: Record<string, { id: string; status: string; scheduledFor: string }[]> = {}
  for (const r of recent)
    (recentRuns[r.jobId] ??= []).push({
      id: r.id,
      status: r.status,
      scheduledFor: r.scheduledFor.toISOString(),
    })
  // The page stays live (polls) while any of these has a run queued or running.
  return {
    jobs: page.jobs.map(toJobRow),
    total: page.total,
    nextCursor: page.nextCursor,
    recentRuns,
    offers,
    activeJobIds: active,
    me: { userId: caller.userId },
  }
}

/** How many of each job's latest runs the list shows as dots. */
export const RECENT_RUNS = 5

/** A paused copy named `<name>-copy` (or `-copy-2`, …), to edit before it runs. */
async function duplicateJob(caller: Caller, id: string) {
  const job = await getJob(caller, id)
  for (let n = 1; n <= 5; n++) {
    const name = `${job.name}-copy${n > 1 ? `-${n}` : ''}`.slice(0, 64)
    try {
      return await createJob(caller, { ...definitionOf(job), name, enabled: false })
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 409 && err.field === 'name')) throw err
    }
  }
  throw conflict(`Too many copies of ${job.name} already; rename one first`, 'name')
}

/** Row actions of the list: the enable switch (and pause/resume in the menu), duplicate. */
export async function handleJobsListAction(caller: Caller, request: Request) {
  return runForm(request, async ({ intent = '', id = '', enabled }) => {
    if (intent === 'duplicate') return { id, job: await duplicateJob(caller, id) }
    if (intent !== 'toggle') throw badRequest(`Unknown intent "${intent}"`, 'intent')
    await setJobEnabled(caller, id, enabled === 'true')
    return { id, enabled: enabled === 'true' }
  })
}
