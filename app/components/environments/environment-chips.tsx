import { Badge } from '#app/components/ui/card.tsx'
import type { EnvironmentStatus } from '#server/environments/browse/browse.ts'

const STATUS: Record<
  EnvironmentStatus,
  { label: string; tone: 'green' | 'neutral' | 'amber' | 'red'; hint: string }
> = {
  ready: { label: 'Ready', tone: 'green', hint: 'Its folder is on this server' },
  not_started: { label: 'Not started', tone: 'neutral', hint: 'Defined; its folder is made on first use' },
  elsewhere: { label: 'On another server', tone: 'amber', hint: 'Its folder lives on another app server' },
  no_definition: { label: 'No definition', tone: 'red', hint: 'Its environments/<name>.md was deleted' },
}

export function StatusBadge({ status }: { status: EnvironmentStatus }) {
  const s = STATUS[status]
  return (
    <Badge tone={s.tone} title={s.hint}>
      {s.label}
    </Badge>
  )
}

/** 0 B, 12.3 KB, 4.1 MB: decimal units, one decimal past a kilobyte. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1000
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${value.toFixed(1)} ${units[unit]}`
}

/** The environment page of `name` in `scope` (names are per scope, so the scope is always given). */
export const environmentHref = (e: { name: string; scope: string }, params: Record<string, string> = {}) =>
  `/environments/${e.name}?${new URLSearchParams({ scope: e.scope, ...params })}`
