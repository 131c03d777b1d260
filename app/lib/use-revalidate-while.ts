import { useEffect, useRef } from 'react'
import { useRevalidator } from 'react-router'

/**
 * Runs the page's loaders again every `everyMs` while `active` (e.g. while a run is queued or
 * running) and the tab is visible, so everything the page shows about it moves together.
 */
export function useRevalidateWhile(active: boolean, everyMs = 2_000) {
  const revalidator = useRevalidator()
  const current = useRef(revalidator)
  useEffect(() => {
    current.current = revalidator
  })
  useEffect(() => {
    if (!active) return
    const id = setInterval(() => {
      if (document.visibilityState === 'visible' && current.current.state === 'idle')
        void current.current.revalidate()
    }, everyMs)
    return () => clearInterval(id)
  }, [active, everyMs])
}
