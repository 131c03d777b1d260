/** The part of React Router's browser manifest read here: each route's module and its chunks. */
type ManifestRoute = { id: string; module?: string; imports?: string[] }

declare global {
  interface Window {
    __reactRouterManifest?: { routes: Record<string, ManifestRoute | undefined> }
  }
}

/** The pages inside the app layout (and the not-found page), by their route ids. */
const isAppPage = (id: string) => id.startsWith('routes/_app.') || id === 'routes/$'

/**
 * Fetches the code of every page in the app, once the browser is idle after the first one shows
 * (decision 0529). React Router loads a page's code when a link to it is followed, and when that
 * fails (the server is down, the network dropped) it reloads the whole document, which offline is
 * the browser's own error page instead of the app's "Can't reach Clockwork". With the code here,
 * only the page's data is asked for, and its failure stays in the app. `modulepreload` fetches
 * without running anything; the routes are all in the manifest (`routeDiscovery: initial`).
 */
export function warmAppPages(): () => void {
  // Not on the development server: there each page's code is dozens of modules compiled on first
  // request, and a developer's first page would wait behind every other (first-run.spec counts them).
  if (import.meta.env.DEV) return () => {}
  const manifest = window.__reactRouterManifest
  if (!manifest) return () => {}
  const start = () => {
    const known = new Set(
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => l.href),
    )
    for (const route of Object.values(manifest.routes)) {
      if (!route?.module || !isAppPage(route.id)) continue
      for (const path of [route.module, ...(route.imports ?? [])]) {
        const href = new URL(path, location.href).href
        if (known.has(href)) continue
        known.add(href)
        const link = document.createElement('link')
        link.rel = 'modulepreload'
        link.href = href
        document.head.append(link)
      }
    }
  }
  if ('requestIdleCallback' in window) {
    const id = requestIdleCallback(start, { timeout: 5_000 })
    return () => cancelIdleCallback(id)
  }
  const id = setTimeout(start, 1_000)
  return () => clearTimeout(id)
}
