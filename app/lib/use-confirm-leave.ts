import { useEffect } from 'react'
import { useBlocker, type Location } from 'react-router'

/**
 * Asks before an in-app navigation would throw away unsaved work, and lets the browser ask
 * before a reload or tab close. `leaves` says which navigations count (by default: any that
 * changes the path or the query).
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
    if (blocker.state !== 'blocked') return
    if (window.confirm(message)) blocker.proceed()
    else blocker.reset()
  }, [blocker, message])
  useEffect(() => {
    if (!dirty) return
    const warn = (e: BeforeUnloadEvent) => e.preventDefault()
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [dirty])
}
