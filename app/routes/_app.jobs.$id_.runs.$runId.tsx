import { RunPage } from '#app/components/runs/run-page.tsx'
import { PageError } from '#app/components/ui/page-error.tsx'
import { requirePageCaller } from '#server/http/pages.ts'
import { loadRunPage } from '#server/pages/run-page.ts'
import type { Route } from './+types/_app.jobs.$id_.runs.$runId'

export const meta = ({ data }: Route.MetaArgs) => [
  { title: data ? `Run of ${data.job.name} · Clockwork` : 'Run · Clockwork' },
]

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadRunPage(await requirePageCaller(request), params.id, params.runId)
}

export default function Run({ loaderData }: Route.ComponentProps) {
  return <RunPage key={loaderData.run.id} {...loaderData} />
}

export function ErrorBoundary({ error, params }: Route.ErrorBoundaryProps) {
  return (
    <PageError
      error={error}
      what="run"
      back={{ to: `/jobs/${encodeURIComponent(params.id)}`, label: 'Back to the job' }}
    />
  )
}
