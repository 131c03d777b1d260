/** How a workspace file is answered over HTTP: JSON by default, raw text when the client asks. */
import { json } from './respond.ts'
import { versionHeaders } from './request.ts'
import type { ResourceView } from '../resources/files.ts'

/** True when the client prefers text (e.g. `Accept: text/markdown`) over JSON. */
function wantsRawText(request: Request): boolean {
  const accept = request.headers.get('accept') ?? ''
  return /\btext\//i.test(accept) && !/application\/json/i.test(accept)
}

/**
 * `{ resource }` as JSON with an ETag, or for `Accept: text/*` the file itself, typed by its
 * extension. Never served as HTML, and nosniff stops browsers from guessing otherwise.
 */
export function resourceResponse(request: Request, resource: ResourceView): Response {
  const headers = versionHeaders(resource.version)
  if (!wantsRawText(request)) return json({ resource }, { headers })
  return new Response(resource.content, {
    headers: {
      ...headers,
      'content-type': `${resource.contentType}; charset=utf-8`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    },
  })
}
