/**
 * HTTP details of the API that do not belong in a route module: versions in If-Match/ETag
 * headers, JSON 405s, and reading a body (text or JSON) that stops at its size limit.
 */
import { HttpError, badFields, badRequest, toErrorBody } from '../lib/errors.ts'
import { jsonKeyProblems, type KeyRules } from '../lib/json-keys.ts'
import { readTextBody } from '../lib/read-body.ts'
import { json } from './respond.ts'

/**
 * The version in an `If-Match` header, or undefined when there is none (or it is `*`). Accepts
 * `3`, `"3"` and `W/"3"`, so clients may echo the ETag back as they received it.
 *
 * @throws HttpError 400 `If-Match` for anything else.
 */
export function readIfMatch(request: Request): number | undefined {
  const header = request.headers.get('if-match')?.trim()
  if (!header || header === '*') return undefined
  // A job read's ETag is "<version>.<digest>" (http/conditional.ts): the version is what counts.
  const match = /^(?:W\/)?(?:"(\d{1,9})(?:\.[\w-]{1,40})?"|(\d{1,9}))$/.exec(header)
  if (!match) throw badRequest('If-Match: must be the version you last read, e.g. "3"', 'If-Match')
  return Number(match[1] ?? match[2])
}

/** Headers carrying a version as a strong ETag. */
export function versionHeaders(version: number): HeadersInit {
  return { etag: `"${version}"` }
}

/** A JSON 405 naming the methods this path takes. */
export function methodNotAllowed(request: Request, allowed: string[]): Response {
  const err = new HttpError(
    405,
    'method_not_allowed',
    `${request.method} is not allowed here; use ${allowed.join(', ')}`,
  )
  return json(toErrorBody(err), { status: 405, headers: { allow: allowed.join(', ') } })
}

/**
 * Reads a JSON object body through {@link readTextBody} (so an oversize body is refused while it
 * streams in, never buffered whole): 413 past `maxBytes`, 400 for anything but a JSON object, and
 * 400 naming every key given twice in one object (JSON.parse would silently keep the last), named
 * `__proto__`, or too long unless `rules` say otherwise (server/lib/json-keys.ts).
 */
export async function readJsonBody(
  request: Request,
  maxBytes = 256 * 1024,
  rules: KeyRules = {},
): Promise<Record<string, unknown>> {
  const text = await readTextBody(request, maxBytes)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw badRequest('Body must be valid JSON', 'body')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('Body must be a JSON object', 'body')
  }
  const problems = jsonKeyProblems(text, rules)
  if (problems.length > 0) throw badFields(problems.map(({ path, message }) => ({ field: path, message })))
  return body as Record<string, unknown>
}

export { readTextBody }
