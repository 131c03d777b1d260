import { Check, ChevronsUpDown, Globe } from 'lucide-react'
import { Popover } from 'radix-ui'
import { useId, useMemo, useRef, useState } from 'react'
import { cn } from '#app/lib/cn.ts'
import { inputClass } from '#app/components/ui/field.tsx'
import { formatZoneOffset, listTimeZones } from '#app/lib/time.ts'

type ZoneChoice = { zone: string; offset: string; haystack: string }
let choices: ZoneChoice[] | undefined

/** Every zone with its current offset and search text, computed once per page (400+ formatters). */
function listZoneChoices(): ZoneChoice[] {
  choices ??= listTimeZones().map((zone) => ({
    zone,
    offset: formatZoneOffset(zone),
    haystack: zone.toLowerCase().replace(/[_/]/g, ' '),
  }))
  return choices
}

type Props = {
  id?: string
  name?: string
  value: string
  onChange: (zone: string) => void
  invalid?: boolean
  describedBy?: string
}

/**
 * A searchable picker over every IANA zone the browser knows. Type part of a city or region
 * ("berl", "new y"), move with the arrow keys, Enter picks. The value is also posted as a hidden
 * input named `name`, so it works inside a plain form.
 */
export function TimezonePicker({ id, name, value, onChange, invalid, describedBy }: Props) {
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const listId = useId()
  const list = useRef<HTMLUListElement>(null)
  // The zone list is read on the client only (when opened), so server and browser never disagree.
  const zones = useMemo(() => (open ? listZoneChoices() : []), [open])
  const matches = useMemo(() => {
    const words = query.toLowerCase().replace(/[_/]/g, ' ').split(/\s+/).filter(Boolean)
    return zones.filter((z) => words.every((w) => z.haystack.includes(w)))
  }, [zones, query])

  function pick(zone: string) {
    onChange(zone)
    setOpen(false)
  }
  function move(delta: number) {
    const next = Math.max(0, Math.min(matches.length - 1, active + delta))
    setActive(next)
    list.current?.children[next]?.scrollIntoView({ block: 'nearest' })
  }
  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        setQuery('')
        setActive(0)
      }}
    >
      {name ? <input type="hidden" name={name} value={value} /> : null}
      <Popover.Trigger
        id={id}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        className={cn(inputClass, 'flex items-center gap-2 text-left')}
      >
        <Globe className="size-4 shrink-0 text-stone-600 dark:text-stone-400" aria-hidden />
        <span className="flex-1 truncate">{value.replace(/_/g, ' ')}</span>
        <span className="text-xs text-stone-600 dark:text-stone-400" suppressHydrationWarning>
          {formatZoneOffset(value)}
        </span>
        <ChevronsUpDown className="size-4 shrink-0 text-stone-600 dark:text-stone-400" aria-hidden />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          className="z-50 w-(--radix-popover-trigger-width) min-w-72 rounded-lg border border-stone-200 bg-white p-1 shadow-lg dark:border-stone-700 dark:bg-stone-900"
        >
          <input
            autoFocus
            role="combobox"
            aria-label="Search time zones"
            aria-expanded
            aria-controls={listId}
            aria-activedescendant={matches[active] ? `${listId}-${active}` : undefined}
            placeholder="Search city or region…"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value)
              setActive(0)
            }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault()
                move(e.key === 'ArrowDown' ? 1 : -1)
              } else if (e.key === 'Enter') {
                e.preventDefault()
                const match = matches[active]
                if (match) pick(match.zone)
              }
            }}
            className={cn(inputClass, 'mb-1')}
          />
          <ul
            ref={list}
            id={listId}
            role="listbox"
            aria-label="Time zones"
            className="max-h-64 overflow-y-auto"
          >
            {matches.map(({ zone, offset }, i) => (
              <li
                key={zone}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={zone === value}
                onMouseEnter={() => setActive(i)}
                onClick={() => pick(zone)}
                className={cn(
                  'flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm',
                  i === active && 'bg-stone-100 dark:bg-stone-800',
                )}
              >
                <Check className={cn('size-4 text-brand-600', zone !== value && 'invisible')} aria-hidden />
                <span className="flex-1 truncate">{zone.replace(/_/g, ' ')}</span>
                <span className="text-xs text-stone-600 dark:text-stone-400">{offset}</span>
              </li>
            ))}
            {matches.length === 0 ? (
              <li className="px-2 py-3 text-center text-sm text-stone-600 dark:text-stone-400">
                No zone matches “{query}”
              </li>
            ) : null}
          </ul>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  )
}
