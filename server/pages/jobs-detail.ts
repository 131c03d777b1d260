/** Server side of the job page (app/routes/_app.jobs.$id.tsx). */
import { redirect } from 'react-router'
import { isOrgAdmin, type Caller } from '../auth/caller.ts'
import { badRequest } from '../lib/errors.ts'
import { runForm } from './forms.ts'
import { jobFormSpec } from '../jobs/fields.ts'
import { deleteJob, getJob, readJobAuditUnchecked, setJobEnabled, updateJob } from '../jobs/service.ts'
import { toUpdateInput } from './jobs-form.ts'
import { listTransferTargets, transferJob } from '../jobs/transfer.ts'
import { acceptTransferOffer, declineTransferOffer, readTransferOffer } from '../jobs/transfer-offers.ts'
import { readRunHistoryUnchecked } from './run-history.ts'
import { orRouteError } from './page-errors.ts'

/**
 * The job, its audit trail, its newest runs, the form's fields (jobs/fields.ts) (server/pages/run-history.ts; the run-history
 * component owns their shape).
 */
export async function loadJobPage(caller: Caller, id: string) {
  // The runs before the job: a run that ends between the two reads then shows as still running
  // beside the job's finished state, which the page's next look at the runs corrects (it polls
  // while a run is active); read the other way round, the rows would say "succeeded" beside a
  // status card stuck at "running", with nothing left to poll for.
  // The runs and the audit trail are read without a check of their own (three statements, not
  // five): the job's read is the check, and when it fails (404) the page shows neither.
  const runs = await readRunHistoryUnchecked(id)
  // The job and its audit trail have no such order between them: read together.
  const [job, audit] = await Promise.all([orRouteError(getJob(caller, id)), readJobAuditUnchecked(id)])
  // Admins may hand a shared job to a member (jobs/transfer.ts), who accepts or declines the offer.
  const [transferTargets, transferOffer] =
    job.scope === 'shared'
      ? await Promise.all([listTransferTargets(caller), readTransferOffer(job)])
      : [[], null]
  return {
    job,
    audit,
    runs,
    me: { userId: caller.userId, isAdmin: isOrgAdmin(caller) },
    form: jobFormSpec(),
    transferTargets,
    transferOffer,
  }
}

/** Reads an If-Match version from the form; absent means "do not check". */
function versionOf(fields: Record<string, string>): number | undefined {
  const n = Number(fields.version)
  return fields.version && Number.isInteger(n) ? n : undefined
}

/**
 * Save, pause/resume, transfer, accepting an offer and delete, each with the version the person saw
 * (409 if it moved on); declining an offer clears it whatever changed.
 */
export async function handleJobPageAction(caller: Caller, id: string, request: Request) {
  const result = await runForm(request, async ({ intent = '', ...fields }) => {
    const ifMatch = versionOf(fields)
    switch (intent) {
      case 'save':
        return { job: await updateJob(caller, id, toUpdateInput(fields), { ifMatch }) }
      case 'toggle':
        return { job: await setJobEnabled(caller, id, fields.enabled === 'true', { ifMatch }) }
      case 'transfer':
        return transferJob(caller, id, { toUserId: fields.toUserId })
      case 'accept-transfer':
        return { job: await acceptTransferOffer(caller, id, { version: ifMatch }) }
      // The member it names declines it, an admin withdraws it: one step, told apart by the page's toast.
      case 'decline-transfer':
      case 'withdraw-transfer':
        return { job: await declineTransferOffer(caller, id) }
      case 'delete': {
        const job = await getJob(caller, id)
        await deleteJob(caller, id)
        return { deleted: job.name }
      }
      default:
        throw badRequest(`Unknown intent "${intent}"`, 'intent')
    }
  })
  if (result.ok && result.data && 'deleted' in result.data && typeof result.data.deleted === 'string') {
    return redirect(`/jobs?deleted=${encodeURIComponent(result.data.deleted)}`)
  }
  return result
}
