import { AlertTriangle, SearchX, WifiOff } from 'lucide-react'
import { useState } from 'react'
import { isRouteErrorResponse, Link, useRevalidator } from 'react-router'
import { Button, buttonClass } from '#app/components/ui/button.tsx'
import { isUnreachable } from '#app/lib/unreachable.ts'

/** Where a page's "way back" goes: the list the missing thing would be in. */
export type BackLink = { to: string; label: string }

export const BACK_TO_JOBS: BackLink = { to: '/jobs', label: 'Back to jobs' }

type Tone = 'unreachable' | 'missing' | 'failed'

const ICON = { unreachable: WifiOff, missing: SearchX, failed: AlertTriangle } as const

/**
 * A route's ErrorBoundary body: what went wrong in words a person can act on, inside the app
 * layout (so the navigation stays), never a stack trace. `what` names the page ("job", "run");
 * `back` is the way to the list it belongs to.
 */
export function PageError({
  error,
  what,
  back = BACK_TO_JOBS,
}: {
  error: unknown
  what: string
  back?: BackLink
}) {
  if (isUnreachable(error)) {
    return (
      <ErrorCard
        tone="unreachable"
        title="Can’t reach Clockwork"
        detail="The server did not answer. Check your connection, then retry: the page loads as soon as Clockwork answers again."
        back={back}
        retry="Tried again: still no answer."
      />
    )
  }
  if (isRouteErrorResponse(error)) {
    const message = typeof error.data === 'string' && error.data ? error.data : null
    if (error.status === 404) {
      return (
        <ErrorCard
          tone="missing"
          title={`This ${what} does not exist`}
          detail={message ?? 'It may have been deleted, or it belongs to someone else.'}
          back={back}
        />
      )
    }
    if (error.status === 403) {
      return (
        <ErrorCard
          tone="missing"
          title="Not allowed"
          detail={message ?? `You may not open this ${what}.`}
          back={back}
        />
      )
    }
    if (error.status < 500 && message) {
      return <ErrorCard tone="failed" title="That did not work" detail={message} back={back} />
    }
  }
  return (
    <ErrorCard
      tone="failed"
      title="Something went wrong"
      detail={`We could not load this ${what}. Retry in a moment; if it keeps happening, check the server log.`}
      back={back}
      retry="Tried again: it still did not work."
    />
  )
}

/**
 * The card itself: an icon, a heading, a sentence, the way back and, when trying again may help,
 * Retry (`retry` is what it says, under the buttons, when the second try fails too).
 */
export function ErrorCard({
  tone,
  title,
  detail,
  back,
  retry,
}: {
  tone: Tone
  title: string
  detail: string
  back: BackLink
  retry?: string
}) {
  const Icon = ICON[tone]
  const again = useRetry()
  return (
    <div
      role="alert"
      className="mx-auto max-w-lg py-16 text-center"
      data-testid="page-error"
      data-tone={tone}
    >
      <Icon
        className={
          tone === 'failed' ? 'mx-auto mb-4 size-8 text-amber-500' : 'mx-auto mb-4 size-8 text-stone-500'
        }
        aria-hidden
      />
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{detail}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {retry ? (
          <Button busy={again.busy} busyLabel="Retrying…" onClick={again.run}>
            Retry
          </Button>
        ) : null}
        <Link to={back.to} className={buttonClass(retry ? 'secondary' : 'primary')}>
          {back.label}
        </Link>
      </div>
      {retry && again.failedAgain ? (
        <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">{retry}</p>
      ) : null}
    </div>
  )
}

/**
 * Retry: loads the page's data again (its loaders, not the document), and the error goes once they
 * answer. Busy while it waits; `failedAgain` once it has tried and the card is still here.
 */
function useRetry() {
  const revalidator = useRevalidator()
  const [tried, setTried] = useState(false)
  const busy = revalidator.state === 'loading'
  return {
    busy,
    failedAgain: tried && !busy,
    run: () => {
      setTried(true)
      void revalidator.revalidate()
    },
  }
}
