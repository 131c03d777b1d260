import { Monitor, Moon, Sun } from 'lucide-react'
import { useState } from 'react'
import { useHydrated } from '#app/lib/hydrated.ts'
import { readTheme, saveTheme, type Theme } from '#app/lib/theme.ts'

const CHOICES: [Theme, string, typeof Sun][] = [
  ['light', 'Light', Sun],
  ['dark', 'Dark', Moon],
  ['system', 'System', Monitor],
]

/** Light / dark / system, as a radio group; the choice is kept in this browser. */
export function ThemeToggle() {
  const hydrated = useHydrated()
  const [picked, setTheme] = useState<Theme | null>(null)
  // The server cannot know the saved choice: read it once hydrated.
  const theme = picked ?? (hydrated ? readTheme() : 'system')
  return (
    <div
      role="radiogroup"
      aria-label="Theme"
      className="inline-flex rounded-lg border border-stone-300 p-0.5 dark:border-stone-700"
    >
      {CHOICES.map(([value, label, Icon]) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={theme === value}
          disabled={!hydrated}
          onClick={() => {
            saveTheme(value)
            setTheme(value)
          }}
          className="inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm text-stone-600 aria-checked:bg-stone-900 aria-checked:text-white dark:text-stone-300 dark:aria-checked:bg-stone-100 dark:aria-checked:text-stone-900"
        >
          <Icon className="size-4" aria-hidden /> {label}
        </button>
      ))}
    </div>
  )
}
