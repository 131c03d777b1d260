import { ChevronDown, History } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '#app/components/ui/button.tsx'
import { Badge } from '#app/components/ui/card.tsx'
import { cn } from '#app/lib/cn.ts'
import { browserTimeZone, formatExact } from '#app/lib/time.ts'
import { useFocusAfterRemoval } from '#app/lib/use-focus-after-removal.ts'
import type { getSkill } from '#server/environments/skills/skills.ts'

type Page = Awaited<ReturnType<typeof getSkill>>
type Entry = Page['audit'][number]
type Trail = { entries: Entry[]; total: number; nextCursor: string | null }

// A skill's trail may hold thousands of refused attempts: read 20 at a time (decision 0465).
const PAGE = 20

const OUTCOME = {
  proposed: { tone: 'amber', label: 'Proposed', verb: 'proposed it' },
  edited: { tone: 'amber', label: 'Pending again', verb: 'changed its text' },
  approved: { tone: 'green', label: 'Approved', verb: 'approved it' },
  rejected: { tone: 'red', label: 'Rejected', verb: 'rejected it' },
  refused: { tone: 'red', label: 'Refused', verb: 'tried to change or approve it' },
  deleted: { tone: 'neutral', label: 'Deleted', verb: 'deleted it' },
} as const

/** The API's answer, or the message of its refusal (or of a network that did not answer). */
async function readPage(skillId: string, cursor: string | null): Promise<Page> {
  const query = new URLSearchParams({ limit: String(PAGE), ...(cursor ? { cursor } : {}) })
  const res = await fetch(`/_agent-native/skills/${encodeURIComponent(skillId)}?${query}`).catch(() => null)
  if (!res) throw new Error('The server did not answer. Check your connection and try again.')
  const body = (await res.json().catch(() => null)) as (Page & { error?: { message?: string } }) | null
  if (!res.ok || !body)
    throw new Error(body?.error?.message ?? `The history could not be read (${res.status}).`)
  return body
}

/**
 * A skill's "History" disclosure: who proposed, changed, approved, rejected or deleted it and
 * whose agent was refused, newest first, read from `GET /_agent-native/skills/:id` (which decides
 * who may see it) on the first open, and a page further back on each "Show earlier".
 */
export function SkillHistory({
  skillId,
  name,
  timeZone,
}: {
  skillId: string
  name: string
  timeZone: string | null
}) {
  const panelId = useId()
  const listId = `${panelId}-list`
  const [open, setOpen] = useState(false)
  const [trail, setTrail] = useState<Trail | null>(null)
  const [loading, setLoading] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function load(cursor: string | null) {
    setLoading(true)
    setError(null)
    try {
      const page = await readPage(skillId, cursor)
      setTrail((before) => ({
        entries: [...(cursor && before ? before.entries : []), ...page.audit],
        total: page.total,
        nextCursor: page.nextCursor,
      }))
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setLoading(false)
    }
  }

  function toggle() {
    setOpen(!open)
    if (!open && !trail && !loading) void load(null)
  }

  return (
    <div className="mt-3">
      <Button variant="ghost" size="sm" aria-expanded={open} aria-controls={panelId} onClick={toggle}>
        <History className="size-4" aria-hidden />
        <span>
          History<span className="sr-only"> of {name}</span>
        </span>
        <ChevronDown className={cn('size-4 transition-transform', open && 'rotate-180')} aria-hidden />
      </Button>
      <div id={panelId} hidden={!open} tabIndex={-1} className="mt-2 outline-none">
        {trail && trail.entries.length > 0 ? (
          <ol
            id={listId}
            tabIndex={-1}
            aria-label={`History of ${name}`}
            className="space-y-2 border-l border-stone-200 pl-4 text-sm outline-none dark:border-stone-700"
          >
            {trail.entries.map((entry) => (
              <HistoryEntry key={entry.id} entry={entry} timeZone={timeZone ?? browserTimeZone()} />
            ))}
          </ol>
        ) : trail && !error ? (
          <p className="text-sm text-stone-600 dark:text-stone-400">No history recorded for this skill.</p>
        ) : null}
        {loading && !trail ? (
          <p role="status" className="mt-2 text-sm text-stone-600 dark:text-stone-400">
            Loading history…
          </p>
        ) : null}
        {error ? (
          <LoadError panelId={panelId} message={error} onRetry={() => void load(trail?.nextCursor ?? null)} />
        ) : null}
        {trail && trail.nextCursor && !error ? (
          <ShowEarlier
            listId={listId}
            busy={loading}
            shown={trail.entries.length}
            total={trail.total}
            onPress={() => void load(trail.nextCursor)}
          />
        ) : null}
      </div>
    </div>
  )
}

/** Why the history could not be read, with Try again; the focus stays in the panel once it goes. */
function LoadError(props: { panelId: string; message: string; onRetry: () => void }) {
  const ref = useFocusAfterRemoval<HTMLDivElement>(props.panelId)
  return (
    <div
      ref={ref}
      role="alert"
      className="mt-2 flex flex-wrap items-center gap-2 text-sm text-red-700 dark:text-red-400"
    >
      <span>{props.message}</span>
      <Button variant="secondary" size="sm" onClick={props.onRetry}>
        Try again
      </Button>
    </div>
  )
}

/**
 * "Show earlier" and the count, its own part so that when the last page lands and it goes, the
 * focus moves to the history's list instead of falling to the page (decision 0420).
 */
function ShowEarlier(props: {
  listId: string
  busy: boolean
  shown: number
  total: number
  onPress: () => void
}) {
  const ref = useFocusAfterRemoval<HTMLDivElement>(props.listId)
  return (
    <div ref={ref} className="mt-2 flex flex-wrap items-center gap-3 text-sm">
      <Button variant="secondary" size="sm" busy={props.busy} busyLabel="Loading…" onClick={props.onPress}>
        Show earlier
      </Button>
      <span className="text-stone-600 dark:text-stone-400">
        {props.shown} of {props.total} entries
      </span>
    </div>
  )
}

function HistoryEntry({ entry, timeZone }: { entry: Entry; timeZone: string }) {
  const outcome = OUTCOME[entry.action]
  const at = new Date(entry.at)
  return (
    <li className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <span className="min-w-0 [overflow-wrap:anywhere]">
        <span className="font-medium">{entry.actor?.name ?? 'Someone since removed'}</span>
        {entry.via === 'agent' ? ' (through their agent)' : ''} {outcome.verb}
      </span>
      <Badge tone={outcome.tone}>{outcome.label}</Badge>
      <time dateTime={at.toISOString()} className="text-xs text-stone-600 dark:text-stone-400">
        {formatExact(at, { timeZone })} ({timeZone})
      </time>
    </li>
  )
}
