import { useEffect, type RefObject } from 'react'
import { useNavigate } from 'react-router'

/**
 * In-app navigation for the plain `<a data-list-link>` links of a long list, from one click listener
 * on the list instead of a React Router `<Link>` per row: each Link's hooks were a fifth of the
 * jobs table's server render (docs/decisions/0264-the-uncached-pages-render-less.md). Link's rules
 * hold: a plain primary click (or Enter) on a same-window link navigates in the app; a click with
 * a modifier key, another button or a link with a target is left to the browser, as is any click
 * before hydration (the link is a real link).
 */
export function useListLinks(list: RefObject<HTMLElement | null>): void {
  const navigate = useNavigate()
  useEffect(() => {
    const element = list.current
    if (!element) return
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return
      if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return
      const link = event.target instanceof Element ? event.target.closest('a[data-list-link]') : null
      if (!link || !element.contains(link) || link.hasAttribute('target')) return
      const href = link.getAttribute('href')
      if (!href) return
      event.preventDefault()
      void navigate(href)
    }
    element.addEventListener('click', onClick)
    return () => element.removeEventListener('click', onClick)
  }, [list, navigate])
}
