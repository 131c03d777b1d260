import { useSyncExternalStore } from 'react'
import { Toaster } from 'sonner'

/**
 * The page's toasts, in the page's theme. Sonner's Toaster is light unless told otherwise, so a
 * page in dark mode showed light toasts; the theme is the `.dark` class the theme script keeps on
 * <html> (app/lib/theme.ts), followed as it changes.
 */
export function ThemedToaster() {
  const dark = useSyncExternalStore(watchThemeClass, isDark, () => false)
  return <Toaster theme={dark ? 'dark' : 'light'} richColors closeButton position="bottom-right" />
}

const isDark = () => document.documentElement.classList.contains('dark')

function watchThemeClass(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange)
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] })
  return () => observer.disconnect()
}
