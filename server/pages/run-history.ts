/** Server side of the job page's run history (app/components/jobs/run-history.tsx). */
import { toRun, type Run } from '../runs/schema.ts'
import { listJobRuns } from '../runs/store.ts'

/** How many runs the page shows before "Load older runs"; the component polls with the same size. */
export const RUN_HISTORY_PAGE = 20
/** The page size as a type, so the browser's copy (app/components/runs/types.ts) cannot drift. */
export type RunHistoryPageSize = typeof RUN_HISTORY_PAGE

/**
 * The newest runs of a job with no access check (the API's `listRunsOfJob` checks): only for a page
 * that checks right after, in the same request, that the caller may see the job, and shows nothing
 * if not (the job page).
 */
export async function readRunHistoryUnchecked(jobId: string): Promise<Run[]> {
  return (await listJobRuns(jobId, { limit: RUN_HISTORY_PAGE })).map(toRun)
}
