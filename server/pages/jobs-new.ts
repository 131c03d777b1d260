/** Server side of the new-job page (app/routes/_app.jobs.new.tsx). */
import { redirect } from 'react-router'
import { isOrgAdmin, type Caller } from '../auth/caller.ts'
import { runForm } from './forms.ts'
import { jobFormSpec } from '../jobs/fields.ts'
import { createJob } from '../jobs/service.ts'
import { toCreateInput } from './jobs-form.ts'

/**
 * Defaults for the form: the caller's zone (null means "use the browser's"), who may pick runAs, and
 * the form's fields from the job-field registry.
 */
export function loadNewJobPage(caller: Caller) {
  return { defaultTimezone: caller.timezone, canUseSharedKey: isOrgAdmin(caller), form: jobFormSpec() }
}

/** Creates the job and opens it; on a bad input, answers the error as data for the form. */
export async function createJobFromForm(caller: Caller, request: Request) {
  const result = await runForm(request, (fields) => createJob(caller, toCreateInput(fields)), 'create')
  if (result.ok && result.data) return redirect(`/jobs/${result.data.id}`)
  return result
}
