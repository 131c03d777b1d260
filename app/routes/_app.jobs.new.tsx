import { ArrowLeft } from 'lucide-react'
import { Link } from 'react-router'
import { NewJobForm } from '#app/components/jobs/new-job-form.tsx'
import { PageError } from '#app/components/ui/page-error.tsx'
import { PageHeader } from '#app/components/ui/card.tsx'
import type { ActionData } from '#app/lib/action-errors.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { createJobFromForm, loadNewJobPage } from '#server/pages/jobs-new.ts'
import type { Route } from './+types/_app.jobs.new'

export const meta = () => [{ title: 'New job · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadNewJobPage(await requirePageCaller(request))
}

export async function action({ request }: Route.ActionArgs) {
  return createJobFromForm(await requirePageCaller(request), request)
}

export default function NewJob({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl">
      <Link
        to="/jobs"
        className="mb-3 inline-flex items-center gap-1 text-sm text-stone-600 dark:text-stone-400 hover:text-stone-800 dark:hover:text-stone-200"
      >
        <ArrowLeft className="size-4" aria-hidden /> Jobs
      </Link>
      <PageHeader
        title="New job"
        description="A prompt the agent will run by itself, on the schedule you pick."
      />
      <NewJobForm
        defaultTimezone={loaderData.defaultTimezone}
        canUseSharedKey={loaderData.canUseSharedKey}
        form={loaderData.form}
        result={actionData as ActionData | undefined}
      />
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <PageError error={error} what="page" />
}
