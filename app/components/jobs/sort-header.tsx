import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react'
import { Link } from 'react-router'
import { readJobListParams, withParams, type JobSort } from '#app/lib/job-list-params.ts'
import { useRequestedSearchParams } from '#app/lib/use-requested-search-params.ts'

/**
 * A column header that sorts the list by its column (a second click reverses the order). Named by
 * its label, so it stays a header for screen readers where the jobs table hides its sort link.
 */
export function SortHeader({
  label,
  column,
  className,
}: {
  label: string
  column: JobSort
  className?: string
}) {
  // The sort chosen last, even while its list loads: a second click reverses it, and a filter
  // still loading is kept.
  const searchParams = useRequestedSearchParams()
  const params = readJobListParams(searchParams)
  const active = params.sort === column
  const nextDir = active && params.dir === 'asc' ? 'desc' : 'asc'
  const Icon = !active ? ArrowUpDown : params.dir === 'asc' ? ArrowUp : ArrowDown
  return (
    <th
      role="columnheader"
      scope="col"
      aria-label={label}
      aria-sort={active ? (params.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={className}
    >
      <Link
        to={withParams(searchParams, {
          sort: column === 'name' ? null : column,
          dir: nextDir === 'asc' ? null : 'desc',
        })}
        preventScrollReset
        className="inline-flex items-center gap-1 hover:text-stone-900 dark:hover:text-white"
      >
        {label}
        <Icon className={active ? 'size-3.5' : 'size-3.5 opacity-40'} aria-hidden />
        <span className="sr-only">
          {active ? `, sorted ${params.dir === 'asc' ? 'ascending' : 'descending'}` : ', sort'}
        </span>
      </Link>
    </th>
  )
}
