import { useEffect, useState } from 'react'
import { useHydrated } from '#app/lib/hydrated.ts'
import { formatExact, formatRelative, toDate } from '#app/lib/time.ts'

/** Re-render once a minute so "in 3 minutes" does not go stale on an open page. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), 30_000)
    return () => clearInterval(id)
  }, [])
  return now
}

/**
 * A moment shown relatively ("in 3 hours") with the exact time, in `timeZone` and the viewer's
 * own, as a tooltip. The server renders the exact time (it knows neither "now" nor the viewer's
 * zone as the browser will), and the browser switches to the relative form after hydration.
 */
export function RelativeTime({
  value,
  timeZone,
  empty = '—',
}: {
  value: string | Date | null | undefined
  timeZone?: string
  empty?: string
}) {
  const hydrated = useHydrated()
  const now = useNow()
  const date = toDate(value)
  if (!date) return <span className="text-stone-600 dark:text-stone-400">{empty}</span>
  if (!hydrated) {
    // The server does not know the viewer's zone: show the job's, or UTC, and say which.
    const zone = timeZone ?? 'UTC'
    return (
      <time dateTime={date.toISOString()}>
        {`${formatExact(date, { timeZone: zone })} ${zone === 'UTC' ? 'UTC' : ''}`.trim()}
      </time>
    )
  }
  const local = formatExact(date, { locale: undefined })
  const inZone = timeZone ? formatExact(date, { timeZone }) : local
  const title = timeZone && local !== inZone ? `${inZone} (${timeZone})\n${local} (your time)` : local
  return (
    <time dateTime={date.toISOString()} title={title} className="cursor-help">
      {formatRelative(date, now)}
    </time>
  )
}
