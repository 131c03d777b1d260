import { Outlet, useRouteLoaderData } from 'react-router'
import { AppShell, useShellData } from '#app/components/app-shell.tsx'
import { PageError } from '#app/components/ui/page-error.tsx'
import { getLayoutData } from '#server/pages/layout.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import type { Route } from './+types/_app'

export async function loader({ request }: Route.LoaderArgs) {
  return getLayoutData(await requirePageCaller(request))
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell data={loaderData}>
      <Outlet />
    </AppShell>
  )
}

/**
 * A page without a boundary of its own that fails (its loader, its render), or this layout's own
 * data failing to reload: the error card inside the shell, so the navigation stays (decision 0529).
 * Without any shell data (the layout's first load failed) there is no shell to show: the card alone.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useShellData(useRouteLoaderData<typeof loader>('routes/_app'))
  if (!data) {
    return (
      <main className="px-6">
        <PageError error={error} what="page" />
      </main>
    )
  }
  return (
    <AppShell data={data}>
      <PageError error={error} what="page" />
    </AppShell>
  )
}
