import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/**
 * False during the server render and the hydration pass, true afterwards. Anything that depends
 * on the browser (its zone, its locale, "now") renders only once this is true, so the server HTML
 * and the first client render always agree.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
