import { useLayoutEffect, useRef } from 'react'

/**
 * For the part of a row that removes it (Revoke, Remove, Disconnect, Cancel): when the row goes
 * while the focus is inside it, the focus moves to the element with id `fallbackId` (its list's
 * heading, focusable with tabIndex -1) instead of falling to the page, where the next Tab would
 * start again from the top (decision 0420). A layout effect's cleanup runs before React takes
 * the row out of the document, while the focus is still inside it.
 */
export function useFocusAfterRemoval<T extends HTMLElement>(fallbackId: string) {
  const ref = useRef<T>(null)
  useLayoutEffect(() => {
    const part = ref.current
    return () => {
      if (part?.contains(document.activeElement)) document.getElementById(fallbackId)?.focus()
    }
  }, [fallbackId])
  return ref
}
