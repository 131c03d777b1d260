import { Search, X } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { Form, Link, useSearchParams, useSubmit } from 'react-router'
import { inputClass } from '#app/components/ui/field.tsx'
import { cn } from '#app/lib/cn.ts'
import { JOB_FILTERS, readJobListParams, withParams } from '#app/lib/job-list-params.ts'
import { useRequestedSearchParams } from '#app/lib/use-requested-search-params.ts'

/**
 * Search and filters for the jobs list. Everything lives in the URL, so a filtered list can be
 * bookmarked, shared and navigated with back/forward. Typing searches after a short pause.
 */
export function JobsToolbar() {
  const searchParams = useRequestedSearchParams()
  const params = readJobListParams(searchParams)
  const submit = useSubmit()
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const search = useRef<HTMLInputElement>(null)
  const submitted = useRef(params.q)
  // The box is the person's while they type: the answer to their own search leaves it alone (it
  // may say more by then), and any other change of the URL (clear, back, a link) is shown in it.
  const [settled] = useSearchParams()
  const settledQ = readJobListParams(settled).q
  useEffect(() => {
    const input = search.current
    if (input && settledQ !== submitted.current && input.value.trim() !== settledQ) input.value = settledQ
    submitted.current = settledQ
  }, [settledQ])
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <nav
        aria-label="Filter jobs"
        className="flex flex-wrap gap-1 rounded-lg bg-stone-200/60 p-1 dark:bg-stone-800/60"
      >
        {JOB_FILTERS.map((f) => {
          const active = params.filter === f.id
          return (
            <Link
              key={f.id}
              to={withParams(searchParams, { filter: f.id === 'all' ? null : f.id })}
              aria-current={active ? 'page' : undefined}
              preventScrollReset
              className={cn(
                'rounded-md px-3 py-1 text-sm font-medium',
                active
                  ? 'bg-white text-stone-900 shadow-sm dark:bg-stone-900 dark:text-white'
                  : 'text-stone-600 hover:text-stone-900 dark:text-stone-400 dark:hover:text-white',
              )}
            >
              {f.label}
            </Link>
          )
        })}
      </nav>
      <Form method="get" role="search" className="relative w-full sm:max-w-xs" preventScrollReset>
        {params.filter !== 'all' ? <input type="hidden" name="filter" value={params.filter} /> : null}
        {params.sort !== 'name' ? <input type="hidden" name="sort" value={params.sort} /> : null}
        {params.dir !== 'asc' ? <input type="hidden" name="dir" value={params.dir} /> : null}
        <Search
          className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-stone-600 dark:text-stone-400"
          aria-hidden
        />
        <input
          type="search"
          name="q"
          aria-label="Search jobs"
          placeholder="Search name or prompt…"
          defaultValue={params.q}
          ref={search}
          className={cn(inputClass, 'pr-8 pl-8')}
          onChange={(e) => {
            const form = e.currentTarget.form
            if (!form) return
            clearTimeout(timer.current)
            timer.current = setTimeout(() => {
              submitted.current = (search.current?.value ?? '').trim()
              void submit(form, { replace: true, preventScrollReset: true })
            }, 300)
          }}
        />
        {params.q ? (
          <Link
            to={withParams(searchParams, { q: null })}
            aria-label="Clear search"
            className="absolute top-2 right-2 rounded p-0.5 text-stone-600 dark:text-stone-400 hover:text-stone-700 dark:hover:text-stone-200"
          >
            <X className="size-4" aria-hidden />
          </Link>
        ) : null}
      </Form>
    </div>
  )
}
