import { CalendarDays as CalendarIcon, ChevronLeft, ChevronRight } from 'lucide-react'
import { useRef } from 'react'
import { Form, Link, useSubmit } from 'react-router'
import { CalendarDays, CalendarWeeks } from '#app/components/calendar/calendar-days.tsx'
import { CalendarFeed } from '#app/components/calendar/calendar-feed.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { EmptyState, PageHeader } from '#app/components/ui/card.tsx'
import { inputClass } from '#app/components/ui/field.tsx'
import { PageError } from '#app/components/ui/page-error.tsx'
import { useFieldsFollowUrl } from '#app/lib/use-fields-follow-url.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleCalendarAction, loadCalendarPage } from '#server/pages/calendar-page.ts'
import type { Route } from './+types/_app.calendar'

export const meta = () => [{ title: 'Calendar · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadCalendarPage(await requirePageCaller(request), request)
}

export async function action({ request }: Route.ActionArgs) {
  return handleCalendarAction(await requirePageCaller(request), request)
}

const shift = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

export default function CalendarPage({ loaderData }: Route.ComponentProps) {
  const { calendar, tokens, origin } = loaderData
  const { query } = calendar
  const submit = useSubmit()
  const filters = useRef<HTMLFormElement>(null)
  useFieldsFollowUrl(filters, {
    days: String(query.days),
    view: query.view,
    scope: query.scope,
    job: query.job ?? '',
  })
  const names = new Map(calendar.jobs.map((j) => [j.id, j.name]))
  const link = (change: Record<string, string>) => {
    const params = new URLSearchParams({
      start: query.start,
      days: String(query.days),
      view: query.view,
      scope: query.scope,
      ...(query.job ? { job: query.job } : {}),
      ...change,
    })
    return `/calendar?${params}`
  }
  const select = `${inputClass} w-auto`
  return (
    <>
      <PageHeader
        title="Calendar"
        description={`Past runs and upcoming fires of the jobs you can see, in your time zone (${calendar.zone}).`}
      />
      <Form
        ref={filters}
        method="get"
        className="mb-4 flex flex-wrap items-end gap-2"
        onChange={(e) => void submit(e.currentTarget)}
        aria-label="Calendar filters"
      >
        <input type="hidden" name="start" value={query.start} />
        <label className="text-sm">
          <span className="block text-xs text-stone-600 dark:text-stone-400">Range</span>
          <select name="days" defaultValue={String(query.days)} className={select}>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
          </select>
        </label>
        <label className="text-sm">
          <span className="block text-xs text-stone-600 dark:text-stone-400">View</span>
          <select name="view" defaultValue={query.view} className={select}>
            <option value="week">Week</option>
            <option value="day">Day by day</option>
          </select>
        </label>
        <label className="text-sm">
          <span className="block text-xs text-stone-600 dark:text-stone-400">Scope</span>
          <select name="scope" defaultValue={query.scope} className={select}>
            <option value="all">All jobs</option>
            <option value="personal">Personal</option>
            <option value="shared">Shared</option>
          </select>
        </label>
        <label className="text-sm">
          <span className="block text-xs text-stone-600 dark:text-stone-400">Job</span>
          <select name="job" defaultValue={query.job ?? ''} className={select}>
            <option value="">Every job</option>
            {calendar.jobs.map((job) => (
              <option key={job.id} value={job.id}>
                {job.name}
              </option>
            ))}
          </select>
        </label>
        <noscript>
          <button type="submit" className={buttonClass('secondary')}>
            Show
          </button>
        </noscript>
        <nav aria-label="Move the window" className="ml-auto flex items-center gap-1">
          <Link
            to={link({ start: shift(query.start, -query.days) })}
            className={buttonClass('secondary', 'sm')}
          >
            <ChevronLeft className="size-4" aria-hidden /> <span className="sr-only">Earlier</span>
          </Link>
          <Link to={link({ start: calendar.today })} className={buttonClass('secondary', 'sm')}>
            Today
          </Link>
          <Link
            to={link({ start: shift(query.start, query.days) })}
            className={buttonClass('secondary', 'sm')}
          >
            <ChevronRight className="size-4" aria-hidden /> <span className="sr-only">Later</span>
          </Link>
        </nav>
      </Form>
      {calendar.capped.length > 0 ? (
        <p className="mb-2 text-xs text-stone-600 dark:text-stone-400" data-testid="calendar-capped">
          Showing the first 100 fires in this range of{' '}
          {calendar.capped.map((id) => names.get(id) ?? id).join(', ')}.
        </p>
      ) : null}
      {calendar.jobs.length === 0 ? (
        <EmptyState icon={<CalendarIcon className="size-8" aria-hidden />} title="No jobs yet">
          Create a job and its runs appear here.
        </EmptyState>
      ) : query.view === 'week' ? (
        <CalendarWeeks calendar={calendar} names={names} />
      ) : (
        <CalendarDays calendar={calendar} names={names} />
      )}
      <CalendarFeed tokens={tokens} origin={origin} />
    </>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <PageError error={error} what="calendar" />
}
