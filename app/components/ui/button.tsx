import { forwardRef } from 'react'
import { cn } from '#app/lib/cn.ts'
import { useHydrated } from '#app/lib/hydrated.ts'

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger'
type Size = 'sm' | 'md'

const variants: Record<Variant, string> = {
  primary:
    'bg-brand-700 text-white shadow-sm hover:bg-brand-800 inactive:bg-brand-700/50 dark:bg-brand-500 dark:text-stone-950 dark:hover:bg-brand-400',
  secondary:
    'border border-stone-300 bg-white text-stone-800 shadow-sm hover:bg-stone-50 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100 dark:hover:bg-stone-800',
  ghost: 'text-stone-700 hover:bg-stone-100 dark:text-stone-300 dark:hover:bg-stone-800',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-700 inactive:bg-red-600/50',
}

const sizes: Record<Size, string> = {
  sm: 'h-8 px-2.5 text-sm gap-1.5',
  md: 'h-9 px-3.5 text-sm gap-2',
}

export type ButtonProps = React.ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: Variant
  size?: Size
  /**
   * The request this button started is under way: the button is `aria-disabled` and `aria-busy`,
   * takes no click (nor Enter, nor a form's submit), and shows `busyLabel` ("Saving…",
   * "Removing…") in place of its label, so a click visibly took. Not `disabled`: a disabled
   * button drops the keyboard's focus to the page (decision 0420).
   */
  busy?: boolean
  busyLabel?: React.ReactNode
  /**
   * Nothing to do now (a form without changes): `aria-disabled`, takes no click, and keeps the
   * focus a `disabled` button would drop (a Save that just saved stays where the keyboard is).
   */
  unavailable?: boolean
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  {
    variant = 'primary',
    size = 'md',
    className,
    type = 'button',
    busy,
    busyLabel,
    unavailable,
    disabled,
    children,
    onClick,
    ...props
  },
  ref,
) {
  // A plain button acts only through its script: until the page has hydrated a press would do
  // nothing, so it is disabled and says so (decision 0537). A submit button works without script
  // (the form posts), so it is left alone.
  const hydrated = useHydrated()
  // Disabled only until then, it keeps the look it will have: no fade in as the script arrives.
  const waiting = type === 'button' && !hydrated && !disabled
  return (
    <button
      ref={ref}
      type={type}
      disabled={disabled || waiting}
      data-hydrating={waiting || undefined}
      aria-disabled={busy || unavailable || undefined}
      aria-busy={busy || undefined}
      onClick={(event) => {
        // Busy or unavailable: no request, and no submit of the form it belongs to.
        if (busy || unavailable) event.preventDefault()
        else onClick?.(event)
      }}
      className={cn(
        'inline-flex items-center justify-center rounded-md font-medium whitespace-nowrap transition-colors inactive:cursor-not-allowed',
        variants[variant],
        sizes[size],
        className,
      )}
      {...props}
    >
      {busy && busyLabel ? busyLabel : children}
    </button>
  )
})

/** Link styled like a button, for navigation that looks like an action. */
export function buttonClass(variant: Variant = 'primary', size: Size = 'md', extra?: string) {
  return cn(
    'inline-flex items-center justify-center rounded-md font-medium',
    variants[variant],
    sizes[size],
    extra,
  )
}
