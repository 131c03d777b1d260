import { Ban, Check, Clock, Minus, X } from 'lucide-react'
import { Link } from 'react-router'
import { Badge } from '#app/components/ui/card.tsx'
import { describeRunStatus } from '#app/lib/job-status.ts'
import { cn } from '#app/lib/cn.ts'
import type { Calendar, CalendarDay, CalendarEntry } from '#server/calendar/calendar.ts'

type Props = { calendar: Calendar; names: Map<string, string> }

const WEEKDAY = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
})

/** "Sun 29 Mar" for a local date (formatted in UTC: the date is already local). */
const dayLabel = (date: string) => WEEKDAY.format(new Date(`${date}T00:00:00Z`))

/**
 * A job's name in a day: whole, wrapping (at its dashes first) when the day is narrow, as it is
 * in a week row beside the open chat, rather than cut to "dail…".
 */
const NAME = 'min-w-0 [overflow-wrap:anywhere]'

/** The time and the name, wrapping inside their own box so what follows them keeps its line. */
const WHEN_WHAT = 'flex min-w-0 flex-1 flex-wrap items-baseline gap-x-1.5'

/**
 * A past run's status as a mark in its tone, for a day too narrow for the word beside a time and
 * a name (a week's column); screen readers still hear the word.
 */
const STATUS_MARKS = {
  green: { Mark: Check, colour: 'text-emerald-700 dark:text-emerald-400' },
  red: { Mark: X, colour: 'text-red-700 dark:text-red-400' },
  amber: { Mark: Ban, colour: 'text-amber-700 dark:text-amber-400' },
  blue: { Mark: Clock, colour: 'text-sky-700 dark:text-sky-400' },
  neutral: { Mark: Minus, colour: 'text-stone-600 dark:text-stone-400' },
  brand: { Mark: Minus, colour: 'text-brand-700 dark:text-brand-300' },
} as const

function Entry({ entry, names, time }: { entry: CalendarEntry; names: Map<string, string>; time: string }) {
  const name = names.get(entry.jobId) ?? entry.jobId
  if (entry.kind === 'fire') {
    return (
      <li data-testid="calendar-fire" data-at={entry.at} data-job={entry.jobId}>
        <Link
          to={`/jobs/${entry.jobId}`}
          className="flex flex-wrap items-baseline gap-x-1.5 rounded border border-dashed border-brand-300 px-1.5 py-0.5 text-xs hover:bg-brand-50 dark:border-brand-700 dark:hover:bg-brand-900/30"
          title={`Upcoming: ${name} at ${time}`}
        >
          <span className="tabular-nums text-stone-600 dark:text-stone-400">{time}</span>
          <span className={NAME}>{name}</span>
        </Link>
      </li>
    )
  }
  const { label, tone } = describeRunStatus(entry.status)
  const { Mark, colour } = STATUS_MARKS[tone]
  return (
    <li data-testid="calendar-run" data-at={entry.at} data-status={entry.status}>
      <Link
        to={`/jobs/${entry.jobId}/runs/${entry.runId}`}
        className="flex items-baseline gap-x-1 rounded px-1.5 py-0.5 text-xs hover:bg-stone-100 dark:hover:bg-stone-800"
        title={`${name} at ${time}: ${label}`}
      >
        <span className={WHEN_WHAT}>
          <span className="tabular-nums text-stone-600 dark:text-stone-400">{time}</span>
          <span className={NAME}>{name}</span>
        </span>
        <span className="flex shrink-0 items-center" data-testid="calendar-run-status">
          <Mark className={cn('size-3 @3xs:hidden', colour)} aria-hidden />
          <span className="sr-only @3xs:hidden">{label}</span>
          <span className="hidden @3xs:inline">
            <Badge tone={tone} className="px-1 py-0 text-[10px]">
              {label}
            </Badge>
          </span>
        </span>
      </Link>
    </li>
  )
}

function Day({ day, props, compact }: { day: CalendarDay; props: Props; compact: boolean }) {
  const time = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: props.calendar.zone,
  })
  const today = day.date === props.calendar.today
  return (
    <section
      aria-label={dayLabel(day.date)}
      data-testid="calendar-day"
      data-date={day.date}
      className={cn(
        // A container: whether a run's status fits as a word depends on the day's width.
        '@container min-w-0 rounded-lg border border-stone-200 bg-white p-2 dark:border-stone-800 dark:bg-stone-900',
        compact ? 'min-h-28' : '',
        today && 'ring-2 ring-brand-500',
      )}
    >
      <h3 className="flex flex-wrap items-center gap-1.5 text-xs font-semibold text-stone-600 dark:text-stone-300">
        {dayLabel(day.date)}
        {day.dst ? (
          <Badge
            tone="amber"
            data-testid="dst-badge"
            title={`The clocks change: ${day.dst.from} → ${day.dst.to}`}
          >
            DST {day.dst.from} → {day.dst.to}
          </Badge>
        ) : null}
      </h3>
      {day.entries.length === 0 ? (
        // In a week's column too: a day's heading with nothing under it reads, to a screen reader
        // going from heading to heading, as a day whose entries failed to show.
        <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">Nothing scheduled</p>
      ) : (
        <ul className="mt-1 space-y-0.5">
          {day.entries.map((entry) => (
            <Entry
              key={`${entry.kind}-${entry.jobId}-${entry.at}-${entry.kind === 'run' ? entry.runId : ''}`}
              entry={entry}
              names={props.names}
              time={time.format(new Date(entry.at))}
            />
          ))}
          {day.more > 0 ? (
            <li className="text-xs text-stone-600 dark:text-stone-400" data-testid="calendar-more">
              {`+${day.more.toLocaleString('en')} more (choose a job to see all of its runs)`}
            </li>
          ) : null}
        </ul>
      )}
    </section>
  )
}

/** The week view: rows of seven days from the first day shown. */
export function CalendarWeeks(props: Props) {
  const weeks: CalendarDay[][] = []
  props.calendar.days.forEach((day, i) => (i % 7 === 0 ? weeks.push([day]) : weeks.at(-1)!.push(day)))
  return (
    // Seven columns once the calendar itself is wide enough (not the screen: the open chat
    // narrows it too); narrower, the days stack.
    <div className="@container space-y-2" data-testid="calendar-weeks">
      {weeks.map((week) => (
        <div key={week[0]!.date} className="grid grid-cols-1 gap-2 @2xl:grid-cols-7">
          {week.map((day) => (
            <Day key={day.date} day={day} props={props} compact />
          ))}
        </div>
      ))}
    </div>
  )
}

/** The day view: one section per day, in a list. */
export function CalendarDays(props: Props) {
  return (
    <div className="space-y-2" data-testid="calendar-list">
      {props.calendar.days.map((day) => (
        <Day key={day.date} day={day} props={props} compact={false} />
      ))}
    </div>
  )
}
