import { CalendarClock, Plus, SearchX } from 'lucide-react'
import { useEffect, useMemo } from 'react'
import { Link, useNavigation, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { JobsTable } from '#app/components/jobs/jobs-table.tsx'
import { JobsToolbar } from '#app/components/jobs/jobs-toolbar.tsx'
import { PageError } from '#app/components/ui/page-error.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { EmptyState, PageHeader } from '#app/components/ui/card.tsx'
import { Pager } from '#app/components/ui/pager.tsx'
import { readJobListParams, sortJobs, toListQuery } from '#app/lib/job-list-params.ts'
import { useRevalidateWhile } from '#app/lib/use-revalidate-while.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleJobsListAction, loadJobsList } from '#server/pages/jobs-list.ts'
import type { Route } from './+types/_app.jobs._index'

export const meta = () => [{ title: 'Jobs · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams
  const params = readJobListParams(search)
  const query = {
    ...toListQuery(params),
    sort: params.sort,
    dir: params.dir,
    cursor: search.get('cursor') ?? '',
  }
  return loadJobsList(await requirePageCaller(request), query)
}

export async function action({ request }: Route.ActionArgs) {
  return handleJobsListAction(await requirePageCaller(request), request)
}

export default function Jobs({ loaderData }: Route.ComponentProps) {
  const [searchParams, setSearchParams] = useSearchParams()
  const navigation = useNavigation()
  const params = readJobListParams(searchParams)
  const jobs = useMemo(
    () => sortJobs(loaderData.jobs, params.sort, params.dir),
    [loaderData.jobs, params.sort, params.dir],
  )
  // While any listed job has a run queued or running, its dots, last run and status stay current.
  // A job still marked running counts too: its run may have ended between the two reads.
  useRevalidateWhile(
    loaderData.activeJobIds.length > 0 || loaderData.jobs.some((job) => job.lastStatus === 'running'),
  )
  const deleted = searchParams.get('deleted')
  useEffect(() => {
    if (!deleted) return
    toast.success(`Deleted "${deleted}"`)
    setSearchParams((p) => (p.delete('deleted'), p), { replace: true, preventScrollReset: true })
  }, [deleted, setSearchParams])
  const filtered = params.filter !== 'all' || params.q !== ''
  const newJob = (
    <Link to="/jobs/new" className={buttonClass()}>
      <Plus className="size-4" aria-hidden /> New job
    </Link>
  )
  return (
    <>
      <PageHeader
        title="Jobs"
        description="Prompts the agent runs by itself, on a schedule."
        actions={newJob}
      />
      {jobs.length === 0 && !filtered ? (
        <EmptyState icon={<CalendarClock className="size-8" />} title="No jobs yet">
          <p>
            A job is a prompt the agent runs on a schedule, like “every weekday at 07:00, summarise
            yesterday’s sign-ups”.
          </p>
          <Link to="/jobs/new" className={buttonClass('primary', 'md', 'mt-5')}>
            <Plus className="size-4" aria-hidden /> Create your first job
          </Link>
        </EmptyState>
      ) : (
        <>
          <JobsToolbar />
          {jobs.length === 0 ? (
            <EmptyState icon={<SearchX className="size-8" />} title="No jobs match">
              <p>Nothing matches {params.q ? <>“{params.q}”</> : 'this filter'}.</p>
              <Link to="/jobs" className={buttonClass('secondary', 'md', 'mt-5')}>
                Clear filters
              </Link>
            </EmptyState>
          ) : (
            <>
              <JobsTable
                jobs={jobs}
                recentRuns={loaderData.recentRuns}
                offers={loaderData.offers}
                meId={loaderData.me.userId}
                busy={navigation.state === 'loading' && navigation.location.pathname === '/jobs'}
              />
              <Pager
                shown={jobs.length}
                total={loaderData.total}
                nextCursor={loaderData.nextCursor}
                noun="jobs"
              />
            </>
          )}
        </>
      )}
    </>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <PageError error={error} what="list of jobs" />
}
