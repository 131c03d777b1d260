import { Children } from 'react'

/**
 * Facts in a row, "a · b · c", that wrap as whole facts with a separator only between two on the
 * same line: never a line that starts with "·". Each fact after the first draws its dot in the
 * space before it, and the row sits that space further left than the box that clips it, so the
 * dot of a fact that starts a line is cut off with the space. Empty children (`null`) are left out.
 */
export function Facts({ children }: { children: React.ReactNode }) {
  return (
    <span className="block overflow-hidden" data-testid="facts">
      <span className="-ml-4 flex flex-wrap items-center gap-y-1">
        {Children.toArray(children).map((fact, i) => (
          <span key={i} className="relative ml-4">
            {i > 0 ? (
              <span aria-hidden className="absolute right-full pr-1">
                ·
              </span>
            ) : null}
            {fact}
          </span>
        ))}
      </span>
    </span>
  )
}
