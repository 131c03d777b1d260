import { AlertTriangle } from 'lucide-react'
import { isRouteErrorResponse, Link } from 'react-router'
import { buttonClass } from '#app/components/ui/button.tsx'

/**
 * A route's ErrorBoundary body: what went wrong in words a person can act on, inside the app
 * layout (so the navigation stays), never a stack trace.
 */
export function PageError({ error, what }: { error: unknown; what: string }) {
  let title = 'Something went wrong'
  let detail = `We could not load this ${what}. Try again in a moment; if it keeps happening, check the server log.`
  if (isRouteErrorResponse(error)) {
    const message = typeof error.data === 'string' ? error.data : null
    if (error.status === 404) {
      title = `This ${what} does not exist`
      detail = message ?? `It may have been deleted, or it belongs to someone else.`
    } else if (error.status === 403) {
      title = 'Not allowed'
      detail = message ?? `You may not open this ${what}.`
    } else if (error.status < 500 && message) {
      title = 'That did not work'
      detail = message
    }
  }
  return (
    <div role="alert" className="mx-auto max-w-lg py-16 text-center">
      <AlertTriangle className="mx-auto mb-4 size-8 text-amber-500" aria-hidden />
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{detail}</p>
      <div className="mt-6 flex justify-center gap-3">
        <Link to="/jobs" className={buttonClass('secondary')}>
          Back to jobs
        </Link>
        <button type="button" className={buttonClass('ghost')} onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    </div>
  )
}
