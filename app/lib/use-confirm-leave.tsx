import { AlertDialog } from 'radix-ui'
import { useEffect } from 'react'
import { useBlocker, type Location } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { dialogOverlayClass, dialogPanelClass } from '#app/components/ui/dialog-frame.ts'

/**
 * Asks, in the app's dialog, before an in-app navigation would throw away unsaved work, and lets
 * the browser ask before a reload or tab close (the one question a page cannot word itself).
 * `leaves` says which navigations count (by default: any that changes the path or the query).
 * Returns the dialog, for the page to render; Escape or "Keep editing" stays, with the work.
 */
export function useConfirmLeave(
  dirty: boolean,
  message: string,
  leaves: (from: Location, to: Location) => boolean = (from, to) =>
    from.pathname !== to.pathname || from.search !== to.search,
) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && leaves(currentLocation, nextLocation),
  )
  useEffect(() => {
    if (!dirty) return
    const warn = (e: BeforeUnloadEvent) => e.preventDefault()
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [dirty])
  return (
    <AlertDialog.Root
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && blocker.state === 'blocked') blocker.reset()
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={dialogOverlayClass} />
        <AlertDialog.Content className={dialogPanelClass}>
          <AlertDialog.Title className="text-lg font-semibold [overflow-wrap:anywhere]">
            {message}
          </AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-stone-600 dark:text-stone-400">
            Leaving this page loses what you changed since you last saved.
          </AlertDialog.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary">Keep editing</Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button variant="danger" onClick={() => blocker.proceed?.()}>
                Discard changes
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}
