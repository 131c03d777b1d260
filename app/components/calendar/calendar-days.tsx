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
  return (
    <li data-testid="calendar-run" data-at={entry.at} data-status={entry.status}>
      <Link
        to={`/jobs/${entry.jobId}/runs/${entry.runId}`}
        className="flex flex-wrap items-baseline gap-x-1.5 rounded px-1.5 py-0.5 text-xs hover:bg-stone-100 dark:hover:bg-stone-800"
        title={`${name} at ${time}: ${label}`}
      >
        <span className="tabular-nums text-stone-600 dark:text-stone-400">{time}</span>
        <span className={NAME}>{name}</span>
        <Badge tone={tone} className="ml-auto shrink-0 px-1 py-0 text-[10px]">
          {label}
        </Badge>
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
        'min-w-0 rounded-lg border border-stone-200 bg-white p-2 dark:border-stone-800 dark:bg-stone-900',
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
        compact ? null : (
          <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">Nothing scheduled.</p>
        )
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
