import { JobDetail } from '#app/components/jobs/job-detail.tsx'
import { PageError } from '#app/components/ui/page-error.tsx'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleJobPageAction, loadJobPage } from '#server/pages/jobs-detail.ts'
import type { Route } from './+types/_app.jobs.$id'

export const meta = ({ data }: Route.MetaArgs) => [{ title: `${data?.job.name ?? 'Job'} · Clockwork` }]

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadJobPage(await requirePageCaller(request), params.id)
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleJobPageAction(await requirePageCaller(request), params.id, request)
}

export default function Job({ loaderData }: Route.ComponentProps) {
  const { job, audit, runs, me, form, transferTargets, transferOffer } = loaderData
  // Keyed by id: moving to another job starts a fresh editor, never carrying a draft across.
  return (
    <JobDetail
      key={job.id}
      job={job}
      audit={audit}
      runs={runs}
      me={me}
      form={form}
      transferTargets={transferTargets}
      transferOffer={transferOffer}
    />
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <PageError error={error} what="job" />
}
