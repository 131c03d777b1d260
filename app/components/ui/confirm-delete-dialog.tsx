import { Trash2 } from 'lucide-react'
import { AlertDialog } from 'radix-ui'
import { useEffect, useRef } from 'react'
import { useFetcher } from 'react-router'
import { toast } from 'sonner'
import { Button } from '#app/components/ui/button.tsx'
import type { ActionData } from '#app/lib/action-errors.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import { dialogOverlayClass, dialogPanelClass } from '#app/components/ui/dialog-frame.ts'

type Props = {
  /** The trigger: a labelled "Delete" button, or an icon-only one named by `label`. */
  trigger: {
    variant: 'secondary' | 'ghost'
    text?: string
    label?: string
    className?: string
    size?: 'sm'
  }
  title: React.ReactNode
  description: React.ReactNode
  confirm: string
  /** Posted to the page's action with `intent` (default `delete`). */
  fields?: Record<string, string>
  /** Another confirmed action than delete (e.g. "Rebuild here"): its intent, icon and busy text. */
  intent?: string
  icon?: React.ReactNode
  busyText?: string
  cancel?: string
  /**
   * For a dialog whose confirm removes its own row (a secret): the id of the element to focus once
   * the row, and with it the trigger the focus would return to, is gone (its list's heading, with
   * tabIndex -1; decision 0420).
   */
  focusAfterRemoval?: string
  /**
   * A second confirm offered once the action refuses with `status`: the way out the refusal
   * names (an environment whose instance is gone: delete its record only), posting `fields` too.
   */
  whenRefused?: { status: number; confirm: string; fields: Record<string, string> }
  /** Said in a toast once the action succeeds, for a dialog whose page does not navigate away. */
  done?: string
}

/**
 * Delete, after saying plainly what goes away: the page's action does the delete (and redirects
 * when the thing shown is gone); its error shows in the dialog.
 */
export function ConfirmDeleteDialog({
  trigger,
  title,
  description,
  confirm,
  fields = {},
  intent = 'delete',
  icon = <Trash2 className="size-4" aria-hidden />,
  busyText = 'Deleting…',
  cancel = 'Keep it',
  focusAfterRemoval,
  whenRefused,
  done,
}: Props) {
  const fetcher = useFetcher<ActionData>()
  // The dialog needs the script; until then the button is honest about doing nothing.
  const hydrated = useHydrated()
  const busy = fetcher.state !== 'idle'
  const refusal = fetcher.data && !fetcher.data.ok ? fetcher.data.error : null
  const error = refusal?.message ?? null
  const wayOut = whenRefused && refusal?.status === whenRefused.status ? whenRefused : null
  const triggerButton = useRef<HTMLButtonElement>(null)
  // On the answer, not on idle: by idle the page has reloaded and a removed row's dialog is gone.
  useEffect(() => {
    if (done && fetcher.data?.ok) toast.success(done)
  }, [done, fetcher.data])
  // Closing returns the focus to the trigger; when the confirm took the trigger's row away, there
  // is no trigger, and the focus would fall to the page.
  const onCloseAutoFocus = (event: Event) => {
    if (!focusAfterRemoval || triggerButton.current?.isConnected) return
    event.preventDefault()
    document.getElementById(focusAfterRemoval)?.focus()
  }
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>
        <Button
          ref={triggerButton}
          variant={trigger.variant}
          size={trigger.size ?? (trigger.text ? undefined : 'sm')}
          className={trigger.className}
          aria-label={trigger.label}
          disabled={!hydrated}
        >
          {icon} {trigger.text}
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialogOverlayClass} />
        <AlertDialog.Content onCloseAutoFocus={onCloseAutoFocus} className={dialogPanelClass}>
          <ConfirmText title={title} description={description} error={error} />
          <div className="mt-6 flex justify-end gap-3">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary">{cancel}</Button>
            </AlertDialog.Cancel>
            <Button
              variant="danger"
              busy={busy}
              busyLabel={busyText}
              onClick={() => void fetcher.submit({ intent, ...fields }, { method: 'post' })}
            >
              {confirm}
            </Button>
            {wayOut ? (
              <Button
                variant="danger"
                busy={busy}
                busyLabel={busyText}
                onClick={() =>
                  void fetcher.submit({ intent, ...fields, ...wayOut.fields }, { method: 'post' })
                }
              >
                {wayOut.confirm}
              </Button>
            ) : null}
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}

/** A confirmation's title, what it does, and the error of a refused attempt. */
export function ConfirmText({
  title,
  description,
  error,
}: {
  title: React.ReactNode
  description: React.ReactNode
  error: string | null
}) {
  return (
    <>
      <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
      <AlertDialog.Description className="mt-2 text-sm [overflow-wrap:anywhere] text-stone-600 dark:text-stone-400">
        {description}
      </AlertDialog.Description>
      {error ? (
        <p role="alert" className="mt-3 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </>
  )
}
