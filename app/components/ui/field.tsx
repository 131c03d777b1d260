import { forwardRef, useId } from 'react'
import { cn } from '#app/lib/cn.ts'

export const inputClass =
  'block w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-stone-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 disabled:bg-stone-100 aria-[invalid=true]:border-red-500 dark:border-stone-700 dark:bg-stone-900 dark:disabled:bg-stone-800'

export const Input = forwardRef<HTMLInputElement, React.InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...props },
  ref,
) {
  return <input ref={ref} className={cn(inputClass, className)} {...props} />
})

type FieldProps = {
  label: string
  error?: string | null
  hint?: React.ReactNode
  children: (ids: { id: string; describedBy?: string; invalid: boolean }) => React.ReactNode
}

/** A label, a control and its hint or error, wired together for screen readers. */
export function Field({ label, error, hint, children }: FieldProps) {
  const id = useId()
  const messageId = `${id}-message`
  const hasMessage = Boolean(error || hint)
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-stone-800 dark:text-stone-200">
        {label}
      </label>
      {children({ id, describedBy: hasMessage ? messageId : undefined, invalid: Boolean(error) })}
      {error ? (
        <p id={messageId} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="text-sm text-stone-600 dark:text-stone-400">
          {hint}
        </p>
      ) : null}
    </div>
  )
}
