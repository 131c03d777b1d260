import { ChevronRight, ChevronsLeft } from 'lucide-react'
import { Link, useSearchParams } from 'react-router'
import { buttonClass } from '#app/components/ui/button.tsx'
import { withParams } from '#app/lib/job-list-params.ts'

/**
 * Paging for a long list read a page at a time (`?cursor=` from the loader's `nextCursor`).
 * Cursors only go forward, so the way back is the browser's, or the first page.
 */
export function Pager({
  shown,
  total,
  nextCursor,
  noun,
}: {
  shown: number
  total: number
  nextCursor: string | null
  noun: string
}) {
  const [searchParams] = useSearchParams()
  const paged = searchParams.has('cursor')
  if (!paged && !nextCursor) return null
  return (
    <nav aria-label="Pages" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-stone-600 dark:text-stone-400">
        {shown} of {total.toLocaleString('en-GB')} {noun}
      </p>
      <div className="flex gap-2">
        {paged && (
          <Link
            to={withParams(searchParams, { cursor: null })}
            className={buttonClass('secondary', 'sm')}
            preventScrollReset={false}
          >
            <ChevronsLeft className="size-4" aria-hidden /> First page
          </Link>
        )}
        {nextCursor && (
          <Link
            to={withParams(searchParams, { cursor: nextCursor })}
            className={buttonClass('secondary', 'sm')}
          >
            Next page <ChevronRight className="size-4" aria-hidden />
          </Link>
        )}
      </div>
    </nav>
  )
}
