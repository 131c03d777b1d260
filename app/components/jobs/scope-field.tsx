import { Lock, Users } from 'lucide-react'
import { RadioGroup } from 'radix-ui'
import { cn } from '#app/lib/cn.ts'

const options = [
  { value: 'personal', label: 'Personal', hint: 'Only you see it; it runs as you.', icon: Lock },
  { value: 'shared', label: 'Shared', hint: 'Everyone in the organisation sees it.', icon: Users },
] as const

/** Personal or shared, as two cards (posted as `scope`). */
export function ScopeField({
  value,
  onChange,
  error,
}: {
  value: 'personal' | 'shared'
  onChange: (scope: 'personal' | 'shared') => void
  error?: string | null
}) {
  return (
    <fieldset className="space-y-1.5">
      <legend className="mb-1.5 text-sm font-medium text-stone-800 dark:text-stone-200">
        Who can see it
      </legend>
      <RadioGroup.Root
        name="scope"
        value={value}
        onValueChange={(v) => onChange(v as 'personal' | 'shared')}
        className="grid gap-3 sm:grid-cols-2"
        aria-invalid={Boolean(error)}
      >
        {options.map(({ value: v, label, hint, icon: Icon }) => (
          <RadioGroup.Item
            key={v}
            value={v}
            className={cn(
              'flex items-start gap-3 rounded-lg border px-4 py-3 text-left transition-colors',
              'border-stone-300 hover:bg-stone-50 dark:border-stone-700 dark:hover:bg-stone-800/50',
              'data-[state=checked]:border-brand-600 data-[state=checked]:bg-brand-50 data-[state=checked]:ring-1 data-[state=checked]:ring-brand-600',
              'dark:data-[state=checked]:border-brand-500 dark:data-[state=checked]:bg-brand-900/30 dark:data-[state=checked]:ring-brand-500',
            )}
          >
            <Icon className="mt-0.5 size-4 shrink-0 text-stone-600 dark:text-stone-400" aria-hidden />
            <span>
              <span className="block text-sm font-medium">{label}</span>
              <span className="block text-xs text-stone-600 dark:text-stone-400">{hint}</span>
            </span>
          </RadioGroup.Item>
        ))}
      </RadioGroup.Root>
      {error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}
