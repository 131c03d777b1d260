import { redirect } from 'react-router'
import { getCaller, type Caller } from '../auth/caller.ts'

/** For page loaders: the caller, or a redirect to sign-in that comes back here afterwards. */
export async function requirePageCaller(request: Request): Promise<Caller> {
  const caller = await getCaller(request)
  if (caller) return caller
  const url = new URL(request.url)
  const back = url.pathname + url.search
  throw redirect(back === '/' ? '/sign-in' : `/sign-in?redirectTo=${encodeURIComponent(back)}`)
}

/** Only same-site paths are followed after sign-in (no open redirects). */
export function safeRedirectPath(value: string | null | undefined, fallback = '/jobs'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback
  return value
}
