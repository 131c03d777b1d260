/** Server side of a run's own page (app/routes/_app.jobs.$id_.runs.$runId.tsx). */
import type { Caller } from '../auth/caller.ts'
import { getJob } from '../jobs/service.ts'
import { notFound } from '../lib/errors.ts'
import { getRunWithTranscript } from '../runs/service.ts'
import { listRunDeliveries } from '../integrations/views.ts'
import { orRouteError } from './page-errors.ts'

/** The run with its transcript and the few job facts its header needs; 404 unless it is this job's. */
export async function loadRunPage(caller: Caller, jobId: string, runId: string) {
  const { run, transcript } = await orRouteError(getRunWithTranscript(caller, runId))
  if (run.jobId !== jobId) await orRouteError(Promise.reject(notFound(`No run ${runId} in this job`)))
  const job = await orRouteError(getJob(caller, jobId))
  return {
    run,
    transcript,
    deliveries: await listRunDeliveries(caller, runId),
    job: { id: job.id, name: job.name, timezone: job.timezone, canEdit: job.canEdit },
  }
}
