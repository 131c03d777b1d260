import { Outlet, redirect } from 'react-router'
import { getCaller } from '#server/auth/caller.ts'
import { safeRedirectPath } from '#server/http/pages.ts'
import { trimTrailing } from '#server/lib/text.ts'
import type { Route } from './+types/_auth'

/**
 * Auth pages a signed-in person may still open: a mailed reset link must work for someone who is
 * signed in on that browser (it sets the linked account's password, the session stays).
 */
const OPEN_WHEN_SIGNED_IN = new Set(['/reset-password'])

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url)
  if (OPEN_WHEN_SIGNED_IN.has(trimTrailing(url.pathname, '/'))) return null
  if (await getCaller(request)) {
    throw redirect(safeRedirectPath(url.searchParams.get('redirectTo')))
  }
  return null
}

export default function AuthLayout() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="mb-8 flex items-center gap-2.5">
        <img src="/favicon.svg" alt="" className="size-9" />
        <span className="text-xl font-semibold tracking-tight">Clockwork</span>
      </div>
      <div className="w-full max-w-sm">
        <Outlet />
      </div>
    </main>
  )
}
