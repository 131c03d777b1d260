import { useState, type KeyboardEvent, type PointerEvent } from 'react'
import { useHydrated } from '#app/lib/hydrated.ts'

/**
 * A radix menu that mounts on first use. Until the first primary pointer-down, or Enter, Space or
 * ArrowDown, on its button, a plain button with the same name and content stands in for it: a
 * radix menu's contexts, refs and presence cost more to render on the server than everything else
 * in a list row or the sidebar, and most menus are never opened on a given page
 * (docs/decisions/0261-row-icons-from-a-sprite.md, 0264-the-uncached-pages-render-less.md). Then
 * the menu mounts already open (`<DropdownMenu.Root defaultOpen>`).
 */
export function useMenuOnFirstUse(
  /**
   * The menu mounts at once, closed, for a place only the script renders (the phone menu's sheet):
   * no server render to spare, and inside a dialog's focus trap the stand-in's swap for the menu's
   * button lost the focus a tap gave it, and the trap then closed the menu as it opened.
   */
  mountNow = false,
) {
  const [used, setUsed] = useState(mountNow)
  // Until the page has hydrated a press would do nothing (decision 0537).
  const hydrated = useHydrated()
  const standIn = {
    type: 'button' as const,
    disabled: !hydrated,
    'aria-haspopup': 'menu' as const,
    'aria-expanded': false,
    onPointerDown: (event: PointerEvent) => {
      if (event.button === 0 && !event.ctrlKey) setUsed(true)
    },
    onKeyDown: (event: KeyboardEvent) => {
      if (['Enter', ' ', 'ArrowDown'].includes(event.key)) {
        event.preventDefault()
        setUsed(true)
      }
    },
  }
  // Mounted by a first use, the menu opens at once; mounted at once, it waits for its button.
  return { used, standIn, openOnMount: !mountNow }
}
