import { useId, useRef, useState, type KeyboardEvent } from 'react'
import { formatChatCost } from '#app/components/usage/cost.ts'
import { cn } from '#app/lib/cn.ts'
import { useHydrated } from '#app/lib/hydrated.ts'

/**
 * One day's figures: runs' or chat turns' (`count`). A cost is null, and turns `unpricedTurns`,
 * when a model has no known price: that part reads "unknown", never $0.
 */
export type ChartDay = {
  day: string
  count: number
  inputTokens: number
  outputTokens: number
  costUsd: number | null
  unpricedTurns: number
}

type Metric = 'cost' | 'tokens'
type Figure = Pick<ChartDay, 'costUsd' | 'unpricedTurns'>

const compact = new Intl.NumberFormat('en-US', { notation: 'compact' })
const METRICS: Record<
  Metric,
  { label: string; value: (d: ChartDay) => number; format: (f: Figure & { n: number }) => string }
> = {
  cost: { label: 'Cost', value: (d) => d.costUsd ?? 0, format: formatChatCost },
  tokens: {
    label: 'Tokens',
    value: (d) => d.inputTokens + d.outputTokens,
    format: ({ n }) => compact.format(n),
  },
}

/** A day's figure as the metric shows it. */
const figure = (d: ChartDay, n: number): Figure & { n: number } => ({ ...d, n })

/** The window's total: the known costs summed; unknown when nothing priced was spent beside unpriced turns. */
function totalOf(days: readonly ChartDay[], values: number[]): Figure & { n: number } {
  const n = values.reduce((a, b) => a + b, 0)
  const unpricedTurns = days.reduce((a, d) => a + d.unpricedTurns, 0)
  const known = days.reduce((a, d) => a + (d.costUsd ?? 0), 0)
  return { n, unpricedTurns, costUsd: known === 0 && unpricedTurns > 0 ? null : known }
}

const HEIGHT = 160
const BAR_GAP = 0.2

/** "2026-11-30" → "30 Nov" (the day is already the caller's day: no zone conversion here). */
function dayLabel(day: string, style: 'short' | 'long' = 'short') {
  const [y, m, d] = day.split('-').map(Number)
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    ...(style === 'long' ? { weekday: 'short', year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(y!, m! - 1, d!)))
}

/**
 * Cost (or tokens) per day as SVG bars. Hand-rolled rather than a chart library: one series of at
 * most 90 bars. Screen readers get a summary on the figure, a title per bar and the same numbers
 * as a table. The bars are one tab stop (a roving tabindex, as a list of 90 days would otherwise
 * be 90 Tab presses): it enters at the last day focused (today at first) and the arrows, Home and
 * End move between days (decision 0371).
 */
export function UsageChart({
  days,
  noun = 'runs',
  subject,
}: {
  days: readonly ChartDay[]
  /** What a day counts ("runs", "turns"). */
  noun?: string
  /** Names the chart when a page has more than one ("Chat": "Chat cost per day"). */
  subject?: string
}) {
  const [metric, setMetric] = useState<Metric>('cost')
  const [active, setActive] = useState<number | null>(null)
  // The day that holds the tab stop: the last one focused, else today (the last bar).
  const [current, setCurrent] = useState<number | null>(null)
  const stop = Math.min(current ?? days.length - 1, days.length - 1)
  const svg = useRef<SVGSVGElement>(null)
  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const moves: Record<string, number> = {
      ArrowLeft: stop - 1,
      ArrowRight: stop + 1,
      Home: 0,
      End: days.length - 1,
    }
    const next = moves[event.key]
    if (next === undefined) return
    event.preventDefault()
    const target = Math.max(0, Math.min(next, days.length - 1))
    svg.current?.querySelectorAll<SVGGElement>('[role="listitem"]')[target]?.focus()
  }
  const titleId = useId()
  // Until the page has hydrated a press would do nothing (decision 0537).
  const hydrated = useHydrated()
  const { value, format } = METRICS[metric]
  const label = subject ? `${subject} ${METRICS[metric].label.toLowerCase()}` : METRICS[metric].label
  const values = days.map(value)
  const max = Math.max(...values, 0)
  const total = totalOf(days, values)
  const width = Math.max(days.length, 1) * 20
  const barWidth = 20 * (1 - BAR_GAP)
  const shown = active === null ? null : days[active]
  return (
    <figure aria-labelledby={titleId}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <figcaption id={titleId} className="font-semibold">
          {label} per day, last {days.length} days: {format(total)}
        </figcaption>
        <div
          role="group"
          aria-label="Show"
          className="inline-flex rounded-md border border-stone-300 dark:border-stone-700"
        >
          {(Object.keys(METRICS) as Metric[]).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={metric === m}
              disabled={!hydrated}
              onClick={() => setMetric(m)}
              className={cn(
                'px-3 py-1 text-sm first:rounded-l-md last:rounded-r-md',
                metric === m
                  ? 'bg-brand-700 text-white dark:bg-brand-500 dark:text-stone-950'
                  : 'hover:bg-stone-100 dark:hover:bg-stone-800',
              )}
            >
              {METRICS[m].label}
            </button>
          ))}
        </div>
      </div>
      <p className="mt-1 h-5 text-sm tabular-nums text-stone-600 dark:text-stone-400" aria-live="polite">
        {shown
          ? `${dayLabel(shown.day, 'long')}: ${format(figure(shown, value(shown)))} · ${shown.count} ${noun}`
          : ''}
      </p>
      <svg
        ref={svg}
        onKeyDown={onKeyDown}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="mt-2 h-40 w-full overflow-visible"
        role="list"
        aria-label={`${label} per day`}
        data-testid="usage-chart"
      >
        <line x1={0} x2={width} y1={HEIGHT} y2={HEIGHT} className="stroke-stone-300 dark:stroke-stone-700" />
        {days.map((d, i) => {
          const v = values[i]!
          // A day with some use gets at least a sliver, so it never looks like a day with none.
          const h = max > 0 ? Math.max((v / max) * HEIGHT, v > 0 ? 2 : 0) : 0
          const text = `${dayLabel(d.day, 'long')}: ${format(figure(d, v))}, ${d.count} ${noun}`
          return (
            <g
              key={d.day}
              role="listitem"
              aria-label={text}
              tabIndex={i === stop ? 0 : -1}
              onFocus={() => {
                setActive(i)
                setCurrent(i)
              }}
              onBlur={() => setActive(null)}
              onMouseEnter={() => setActive(i)}
              onMouseLeave={() => setActive(null)}
              className="group outline-none"
            >
              <title>{text}</title>
              {/* The full-height hit area keeps hovering a zero day possible; outlined, it shows
                  keyboard focus even on a day with no bar to recolour. */}
              <rect
                x={i * 20}
                y={0}
                width={20}
                height={HEIGHT}
                vectorEffect="non-scaling-stroke"
                className="fill-transparent stroke-none stroke-2 group-focus-visible:stroke-brand-600 dark:group-focus-visible:stroke-brand-400"
              />
              <rect
                x={i * 20 + (20 - barWidth) / 2}
                y={HEIGHT - h}
                width={barWidth}
                height={h}
                rx={1.5}
                data-value={v}
                className={active === i ? 'fill-brand-700 dark:fill-brand-300' : 'fill-brand-500'}
              />
            </g>
          )
        })}
      </svg>
      <div className="mt-1 flex justify-between text-xs text-stone-600 dark:text-stone-400" aria-hidden>
        <span>{days[0] ? dayLabel(days[0].day) : ''}</span>
        <span>{days.at(-1) ? dayLabel(days.at(-1)!.day) : ''}</span>
      </div>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer text-stone-600 dark:text-stone-400">Show as a table</summary>
        <table className="mt-2 w-full text-left tabular-nums">
          <thead>
            <tr className="text-stone-600 dark:text-stone-400">
              <th className="py-1 font-medium">Day</th>
              <th className="py-1 font-medium">{noun.charAt(0).toUpperCase() + noun.slice(1)}</th>
              <th className="py-1 font-medium">Tokens in / out</th>
              <th className="py-1 font-medium">Cost</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day} className="border-t border-stone-100 dark:border-stone-800">
                <td className="py-1">{dayLabel(d.day, 'long')}</td>
                <td className="py-1">{d.count}</td>
                <td className="py-1">
                  {d.inputTokens.toLocaleString('en-US')} / {d.outputTokens.toLocaleString('en-US')}
                </td>
                <td className="py-1">{formatChatCost(d)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
