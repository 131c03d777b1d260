import { useLocation, useNavigation, useSearchParams } from 'react-router'

/**
 * This page's search params as the person last asked for them: while a filter, sort or search they
 * chose is still loading, that one, so the next choice builds on it, not on the list on screen
 * (decision 0411).
 */
export function useRequestedSearchParams(): URLSearchParams {
  const [current] = useSearchParams()
  const pending = useNavigation().location
  const here = useLocation()
  return pending?.pathname === here.pathname ? new URLSearchParams(pending.search) : current
}
