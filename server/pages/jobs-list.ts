/** Server side of the jobs list page (app/routes/_app.jobs._index.tsx). */
import type { Caller } from '../auth/caller.ts'
import { badRequest } from '../lib/errors.ts'
import { readForm, runIntent } from './forms.ts'
import { listJobs, setJobEnabled } from '../jobs/service.ts'
import { orRouteError } from './page-errors.ts'

/** The visible jobs for a list query (`{ scope, q, status }`, validated by the service). */
export async function loadJobsList(caller: Caller, query: Record<string, string | undefined>) {
  const jobs = await orRouteError(listJobs(caller, query))
  return { jobs, me: { userId: caller.userId } }
}

/** Row actions of the list: only the enable switch today. */
export async function handleJobsListAction(caller: Caller, request: Request) {
  const { intent = '', id = '', enabled } = await readForm(request)
  return runIntent(intent, async () => {
    if (intent !== 'toggle') throw badRequest(`Unknown intent "${intent}"`, 'intent')
    await setJobEnabled(caller, id, enabled === 'true')
    return { id, enabled: enabled === 'true' }
  })
}
