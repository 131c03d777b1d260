/** Server side of the jobs list page (app/routes/_app.jobs._index.tsx). */
import type { Caller } from '../auth/caller.ts'
import { badRequest } from '../lib/errors.ts'
import { readForm, runIntent } from './forms.ts'
import { listJobPage, setJobEnabled } from '../jobs/service.ts'
import { orRouteError } from './page-errors.ts'

/**
 * One page of the visible jobs for a list query (`{ scope, q, status, sort, dir, cursor }`,
 * validated by the service), with the total and the next page's cursor.
 */
export async function loadJobsList(caller: Caller, query: Record<string, string | undefined>) {
  const page = await orRouteError(listJobPage(caller, query))
  return { ...page, me: { userId: caller.userId } }
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
