/**
 * URLs refused before any route reads them (400): a path that is not valid %-encoding, a NUL
 * (%00) in the path or the query, and, under the API, a query key given more than once.
 */
import type { RequestHandler } from 'express'
import { badFields, toErrorBody, type FieldProblem } from '../lib/errors.ts'
import { repeatedKeyMessage } from '../lib/json-keys.ts'

/**
 * A path that is not valid %-encoding gets a 400 before Vite or React Router try to decode it (they
 * would answer 500 or an HTML page): JSON under /_agent-native/, plain text elsewhere. So does a NUL
 * (%00) in the path or a query value: ids and query values reach SQL as text, which PostgreSQL
 * cannot hold with a NUL, and every route would otherwise answer 500 (found for chat threads'
 * `before`, skill and environment ids). An API query key given twice is refused too, naming every
 * such key: routes read the query as one value per key, and which of two values won (the last
 * for most, the first for some) was the server's silent choice, not the caller's.
 */
export const rejectMalformedPaths: RequestHandler = (req, res, next) => {
  const problems = badUrl(req.path, req.originalUrl)
  if (problems.length === 0) return next()
  res.status(400).set('cache-control', 'no-store')
  if (!req.path.startsWith('/_agent-native/'))
    return void res.type('text/plain').send('Bad request: malformed URL')
  res.json(toErrorBody(badFields(problems)))
}

const NUL_MESSAGE = 'must not contain the NUL character (U+0000)'

// A harness run's endpoint hands its query on to the model provider, whose API it is.
const RELAYED = '/_agent-native/harness/runs/'

function badUrl(path: string, originalUrl: string): FieldProblem[] {
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    return [problem('path', 'is not valid %-encoding')]
  }
  if (decoded.includes('\0')) return [problem('path', NUL_MESSAGE)]
  const query = originalUrl.indexOf('?')
  if (query < 0) return []
  const checkRepeats = path.startsWith('/_agent-native/') && !path.startsWith(RELAYED)
  // A NUL reaches a URL only %-encoded (HTTP refuses it raw): a page's query needs no parse.
  if (!checkRepeats && !originalUrl.includes('%00', query)) return []
  const problems: FieldProblem[] = []
  const seen = new Set<string>()
  const repeated = new Set<string>()
  for (const [key, value] of new URLSearchParams(originalUrl.slice(query + 1))) {
    if (key.includes('\0') || value.includes('\0'))
      return [problem(key.replaceAll('\0', '') || 'query', NUL_MESSAGE)]
    if (seen.has(key)) repeated.add(key)
    seen.add(key)
  }
  if (checkRepeats)
    for (const key of repeated) problems.push({ field: key, message: repeatedKeyMessage(key) })
  return problems
}

const problem = (field: string, message: string): FieldProblem => ({ field, message: `${field}: ${message}` })
