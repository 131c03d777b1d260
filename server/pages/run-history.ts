/** Server side of the job page's run history (app/components/jobs/run-history.tsx). */
import type { Caller } from '../auth/caller.ts'
import type { Run } from '../runs/schema.ts'
import { listRunsOfJob } from '../runs/service.ts'

/** How many runs the page shows before "Load older runs"; the component polls with the same size. */
export const RUN_HISTORY_PAGE = 20
/** The page size as a type, so the browser's copy (app/components/runs/types.ts) cannot drift. */
export type RunHistoryPageSize = typeof RUN_HISTORY_PAGE

/** The newest runs of a job the caller may see (404 otherwise, as for the job). */
export function loadRunHistory(caller: Caller, jobId: string): Promise<Run[]> {
  return listRunsOfJob(caller, jobId, { limit: RUN_HISTORY_PAGE })
}
