import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration } from 'react-router'
import type { Route } from './+types/root'
import '@fontsource-variable/inter'
import { useNonce } from './lib/nonce.tsx'
import './app.css'
import { THEME_SCRIPT } from './lib/theme.ts'
import { IconSprite } from './components/ui/icon-sprite.tsx'
import { ThemedToaster } from './components/ui/themed-toaster.tsx'

export const links: Route.LinksFunction = () => [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }]

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce()
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        {/* Before the first paint: the saved light/dark choice, so the page never flashes. */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {/* Styles may be inline under our CSP; an empty nonce keeps the dev-only critical-CSS
            <style> from taking the script nonce, which the browser would then see mismatched. */}
        <Links nonce="" />
      </head>
      <body className="min-h-screen">
        <IconSprite />
        {children}
        <ThemedToaster />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function App() {
  return <Outlet />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404
  // statusText is empty for responses thrown with data(); never show a made-up reason phrase.
  const title = notFound
    ? 'Page not found'
    : isRouteErrorResponse(error)
      ? `Error ${error.status}`
      : 'Something went wrong'
  const detail = notFound
    ? 'There is no page at this address. Check the link, or start again from your jobs.'
    : isRouteErrorResponse(error)
      ? String(error.data ?? '')
      : 'An unexpected error happened. Try again, and if it keeps happening, check the server log.'
  return (
    <main className="mx-auto max-w-lg px-6 py-24 text-center">
      <title>{`${title} · Clockwork`}</title>
      <img src="/favicon.svg" alt="" className="mx-auto mb-6 size-10" />
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-3 text-stone-600 dark:text-stone-400">{detail}</p>
      <a href="/jobs" className="mt-6 inline-block text-brand-700 underline dark:text-brand-400">
        Back to jobs
      </a>
    </main>
  )
}
