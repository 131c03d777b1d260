import { data } from 'react-router'
import { AppShell } from '#app/components/app-shell.tsx'
import { BACK_TO_JOBS, ErrorCard } from '#app/components/ui/page-error.tsx'
import { getCaller } from '#server/auth/caller.ts'
import { getLayoutData } from '#server/pages/layout.ts'
import type { Route } from './+types/$'

export const meta = () => [{ title: 'Page not found · Clockwork' }]

/**
 * An address no page has: 404. Signed in, the answer carries the app layout's data so the page
 * says so inside the app, navigation and all (decision 0529); signed out, the root's plain page.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const caller = await getCaller(request)
  if (!caller) throw data('Not found', { status: 404 })
  return data(await getLayoutData(caller), { status: 404 })
}

export default function NotFound({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell data={loaderData}>
      <ErrorCard
        tone="missing"
        title="Page not found"
        detail="There is no page at this address. Check the link, or start again from your jobs."
        back={BACK_TO_JOBS}
      />
    </AppShell>
  )
}
