import { useEffect } from 'react'
import { useFetcher } from 'react-router'
import { toast } from 'sonner'
import type { ActionData } from '#app/lib/action-errors.ts'
import { useHydrated } from '#app/lib/hydrated.ts'

type Props = {
  job: { id: string; name: string; enabled: boolean; suspendedReason: string | null; canEdit: boolean }
}

const TRACK =
  'group relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full bg-stone-300 transition-colors disabled:cursor-default disabled:opacity-60 aria-checked:bg-brand-600 dark:bg-stone-700 dark:aria-checked:bg-brand-500'
const THUMB =
  'block size-4 translate-x-0.5 rounded-full bg-white shadow transition-transform group-aria-checked:translate-x-[18px]'

/**
 * Turns a job on or off from wherever it is shown. Posts intent "toggle" to the current route's
 * action; the switch moves at once and snaps back (with a toast) if the server says no.
 * People who may not edit the job see its state as text instead of a control they cannot use.
 */
export function EnableSwitch({ job }: Props) {
  const fetcher = useFetcher<ActionData>()
  const hydrated = useHydrated()
  const pending = fetcher.formData?.get('enabled')
  // A job the system paused is off, whatever `enabled` says; switching it on lifts the pause.
  const active = job.enabled && !job.suspendedReason
  const checked = pending !== undefined && pending !== null ? pending === 'true' : active
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok) toast.error(fetcher.data.error.message)
  }, [fetcher.state, fetcher.data])
  if (!job.canEdit) {
    return (
      <span className="text-sm text-stone-600 dark:text-stone-400" data-testid={`state-${job.name}`}>
        {active ? 'Enabled' : 'Paused'}
      </span>
    )
  }
  // A plain switch button (one per row of the jobs list: the radix one cost more to render than the
  // rest of the row; it renders the same button, role and states).
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      disabled={!hydrated}
      aria-label={`Enabled: ${job.name}`}
      onClick={() =>
        void fetcher.submit({ intent: 'toggle', id: job.id, enabled: String(!checked) }, { method: 'post' })
      }
      className={TRACK}
    >
      <span className={THUMB} />
    </button>
  )
}
