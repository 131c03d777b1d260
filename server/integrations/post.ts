/**
 * The one way integrations post to an admin-registered URL (webhook and Slack endpoints): the
 * outbound SSRF guard (public addresses only, checked after DNS, no redirects followed), widened
 * only for hosts named in INTEGRATIONS_ALLOW_HOSTS (`host` or `host:port`, for private networks
 * and tests).
 */
import { env } from '../env.ts'
import { guardedFetch, isPublicAddress, parseHostList } from '../lib/outbound.ts'

export type PostResult = { status: number; body: string }
/** Posts `body` to `url`; tests may pass their own (delivery options). */
export type PostFn = (url: string, headers: Record<string, string>, body: string) => Promise<PostResult>

/** Whether `url`'s host (or host:port) is named in the allow list. */
export function hostListed(url: URL, allow: readonly string[]): boolean {
  const host = url.hostname.toLowerCase()
  const withPort = `${host}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`
  return allow.some((entry) => {
    const e = entry
      .trim()
      .toLowerCase()
      .replace(/^\[|\](?=:|$)/g, '')
    return e === host.replace(/^\[|\]$/g, '') || e === withPort.replace(/^\[|\](?=:)/g, '')
  })
}

/** The guarded POST, with the allow list read from INTEGRATIONS_ALLOW_HOSTS unless given. */
export function createPost(allow: readonly string[] = parseHostList(env().INTEGRATIONS_ALLOW_HOSTS)): PostFn {
  return async (rawUrl, headers, body) => {
    const url = new URL(rawUrl)
    const listed = hostListed(url, allow)
    const res = await guardedFetch(rawUrl, {
      method: 'POST',
      headers,
      body,
      // Any host may be registered by an admin; where it resolves to is what the guard checks.
      allowHosts: [url.hostname.replace(/^\[|\]$/g, '')],
      addressPolicy: listed ? () => true : isPublicAddress,
      maxRedirects: 0,
      maxBytes: 64 * 1024,
      timeoutMs: 10_000,
    })
    return { status: res.status, body: res.body.toString('utf8').slice(0, 500) }
  }
}
