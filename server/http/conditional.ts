/**
 * Conditional GETs for JSON reads: an ETag computed from the body, and 304 Not Modified when the
 * client's If-None-Match already names it, so a client polling a list or a job gets ~200 bytes
 * instead of the whole body when nothing changed. (The database is still read: run state such as
 * `lastRun` changes without any version bump, so only the body itself can say what changed.)
 */
import { createHash } from 'node:crypto'

/** A short digest of a body: 120 bits of SHA-1, base64url. */
export function digest(body: string): string {
  return createHash('sha1').update(body).digest('base64url').slice(0, 20)
}

/**
 * The ETag for a JSON read. With a `version` (a job), the tag starts with it, `"3.<digest>"`, so
 * a client may echo it back as `If-Match` (which reads the version before the dot); without one
 * it is weak, `W/"<digest>"`.
 */
export function etagFor(body: string, version?: number): string {
  return version === undefined ? `W/"${digest(body)}"` : `"${version}.${digest(body)}"`
}

/** Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for GET). */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  const wanted = opaque(etag)
  return header.split(',').some((tag) => opaque(tag) === wanted)
}

/**
 * `data` as JSON with an ETag, or an empty 304 when the request's If-None-Match already has it.
 * Responses stay `private, no-cache`: browsers may keep them but must revalidate every time
 * (they depend on the session), and shared caches must not store them.
 */
export function conditionalJson(
  request: Request,
  data: unknown,
  options: { version?: number; headers?: HeadersInit } = {},
): Response {
  const body = JSON.stringify(data)
  const etag = etagFor(body, options.version)
  const headers = new Headers(options.headers)
  headers.set('etag', etag)
  headers.set('cache-control', 'private, no-cache')
  headers.set('vary', 'Cookie')
  if (matchesIfNoneMatch(request.headers.get('if-none-match'), etag)) {
    return new Response(null, { status: 304, headers })
  }
  headers.set('content-type', 'application/json; charset=utf-8')
  headers.set('content-length', String(Buffer.byteLength(body)))
  return new Response(body, { status: 200, headers })
}
