import { useEffect, useEffectEvent } from 'react'
import { toast } from 'sonner'
import type { ActionData } from './action-errors.ts'

/**
 * Toasts a fetcher's page-action result once it settles: `success(data)` when the action worked,
 * the server's message when it did not. Only results of `intent` count, since one page answers
 * several forms through the same action.
 */
export function useActionToast(
  fetcher: { state: string; data?: ActionData },
  intent: string,
  success: (data: unknown) => string,
): void {
  // An effect event: `success` is a new function every render, and must not re-fire the toast.
  const announce = useEffectEvent((result: ActionData) => {
    if (result.ok) toast.success(success(result.data))
    else toast.error(result.error.message)
  })
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || fetcher.data.intent !== intent) return
    announce(fetcher.data)
  }, [fetcher.state, fetcher.data, intent])
}
