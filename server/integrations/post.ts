/**
 * How delivery posts to an admin-registered URL (webhook and Slack endpoints): through the one
 * outbound rule for integrations (`integrationFetch`: public addresses only, checked after DNS,
 * widened only for hosts named in INTEGRATIONS_ALLOW_HOSTS), with no redirects followed.
 */
import { integrationFetch } from '../lib/integration-fetch.ts'

export type PostResult = { status: number; body: string }
/** Posts `body` to `url`; tests may pass their own (delivery options). */
export type PostFn = (url: string, headers: Record<string, string>, body: string) => Promise<PostResult>

/** The guarded POST every delivery uses. */
export function createPost(): PostFn {
  return async (url, headers, body) => {
    const res = await integrationFetch(url, {
      adminRegistered: true,
      method: 'POST',
      headers,
      body,
      maxRedirects: 0,
      maxBytes: 64 * 1024,
      timeoutMs: 10_000,
    })
    return { status: res.status, body: res.body.toString('utf8').slice(0, 500) }
  }
}
