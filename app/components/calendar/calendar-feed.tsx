import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { useHydrated } from '#app/lib/hydrated.ts'
import type { CalendarTokenSummary } from '#server/calendar/tokens.ts'

type ActionData = {
  ok: boolean
  intent: string
  data?: { token: string | null }
  error?: { message: string }
}

/** The iCalendar subscription: make a feed address (shown once), list and revoke the live ones. */
export function CalendarFeed({ tokens, origin }: { tokens: CalendarTokenSummary[]; origin: string }) {
  const fetcher = useFetcher<ActionData>()
  const hydrated = useHydrated()
  const created = fetcher.data?.intent === 'create-token' && fetcher.data.ok ? fetcher.data.data?.token : null
  const url = created ? `${origin}/_agent-native/calendar.ics?token=${created}` : null
  return (
    <Card className="mt-6 p-4">
      <h2 className="font-semibold">Subscribe in your calendar app</h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        An iCalendar feed of the next 30 days of runs of every job you can see here. Anyone with the address
        can read it: revoke it when you no longer use it.
      </p>
      {url ? (
        <div className="mt-3 space-y-2">
          <p className="text-sm font-medium">Your feed address (shown this once):</p>
          <pre
            data-testid="calendar-feed-url"
            className="overflow-x-auto rounded-lg bg-stone-100 p-3 text-xs break-all whitespace-pre-wrap dark:bg-stone-800"
          >
            {url}
          </pre>
          <Button variant="secondary" size="sm" onClick={() => void navigator.clipboard.writeText(url)}>
            Copy address
          </Button>
        </div>
      ) : null}
      {fetcher.data && !fetcher.data.ok ? (
        <p role="alert" className="mt-2 text-sm text-red-600">
          {fetcher.data.error?.message}
        </p>
      ) : null}
      <ul
        className="mt-3 divide-y divide-stone-200 text-sm dark:divide-stone-800"
        aria-label="Feed addresses"
      >
        {tokens.map((token) => (
          <li
            key={token.id}
            className="flex items-center justify-between gap-3 py-2"
            data-testid="calendar-token"
          >
            <span>
              Made <RelativeTime value={token.createdAt} />
              {token.lastUsedAt ? (
                <>
                  , last read <RelativeTime value={token.lastUsedAt} />
                </>
              ) : (
                ', never read yet'
              )}
            </span>
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="revoke-token" />
              <input type="hidden" name="id" value={token.id} />
              <Button
                variant="secondary"
                size="sm"
                type="submit"
                disabled={!hydrated}
                busy={fetcher.formData?.get('id') === token.id}
                busyLabel="Revoking…"
              >
                Revoke
              </Button>
            </fetcher.Form>
          </li>
        ))}
      </ul>
      <fetcher.Form method="post" className="mt-3">
        <input type="hidden" name="intent" value="create-token" />
        <Button
          type="submit"
          disabled={!hydrated || fetcher.state !== 'idle'}
          busy={fetcher.formData?.get('intent') === 'create-token'}
          busyLabel="Making an address…"
        >
          New feed address
        </Button>
      </fetcher.Form>
    </Card>
  )
}
