import type { ReactNode } from 'react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { useFocusAfterRemoval } from '#app/lib/use-focus-after-removal.ts'

interface ListedToken {
  id: string
  name: string
  createdAt: string
  lastUsedAt: string | null
}

/**
 * One token in a settings list: what the page says of it, when it was made and last used, and its
 * Revoke (posting `intent` and the token's id). Once it is gone, the focus its Revoke had moves to
 * the list's heading, so a keyboard user is not left on nothing.
 */
export function TokenRow({
  token,
  intent,
  headingId,
  details,
  testId,
}: {
  token: ListedToken
  intent: string
  headingId: string
  /** What the page says of the token (its name first), before when it was made. */
  details: ReactNode
  testId?: string
}) {
  const fetcher = useFetcher()
  const revoke = useFocusAfterRemoval<HTMLFormElement>(headingId)
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm" data-testid={testId}>
      <span className="min-w-0 [overflow-wrap:anywhere]">
        {details}{' '}
        <span className="text-stone-600 dark:text-stone-400">
          · made <RelativeTime value={token.createdAt} /> · last used{' '}
          <RelativeTime value={token.lastUsedAt} empty="never" />
        </span>
      </span>
      <fetcher.Form method="post" ref={revoke}>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="id" value={token.id} />
        <Button
          variant="secondary"
          size="sm"
          type="submit"
          busy={fetcher.state !== 'idle'}
          busyLabel="Revoking…"
          aria-label={`Revoke ${token.name}`}
        >
          Revoke
        </Button>
      </fetcher.Form>
    </li>
  )
}
