import { useSyncExternalStore } from 'react'

const isDark = () => document.documentElement.classList.contains('dark')

/**
 * Whether the app is in dark mode right now: the `.dark` class the theme script keeps on <html>
 * (the person's choice, or the system's when they chose "System"), not the system preference.
 */
export function useDarkClass(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const observer = new MutationObserver(notify)
      observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] })
      return () => observer.disconnect()
    },
    isDark,
    () => false,
  )
}
