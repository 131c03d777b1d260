/**
 * Workspace paths: what a file may be called, and which paths are job files. Checked before any
 * query, so a bad path is a 400 naming `path` and never reaches the database.
 */
import { badRequest } from '../lib/errors.ts'
import { BODY_LIMITS } from '../lib/limits.ts'

const MAX_PATH_LENGTH = 512
/** Largest workspace file, in UTF-8 bytes. Job files have their own, smaller limit (256 KiB). */
export const MAX_RESOURCE_BYTES = BODY_LIMITS.workspaceFile
/** The folder job files live in; nothing else may be stored there. */
const JOBS_FOLDER = 'jobs'

export type ResourceScope = 'personal' | 'shared'

/** Checks the scope part of a resource URL. @throws HttpError 400 `scope`. */
export function parseScope(scope: unknown): ResourceScope {
  if (scope === 'personal' || scope === 'shared') return scope
  throw badRequest('scope: must be "personal" or "shared"', 'scope')
}

/** A checked path: a plain file, or `jobs/<name>.md` (the name is checked by the jobs service). */
export type ResourcePath = { kind: 'file'; path: string } | { kind: 'job'; path: string; name: string }

// Names stay portable and unambiguous in a URL: no spaces, quotes, colons or control characters.
const SEGMENT = /^[A-Za-z0-9._-]+$/

const invalid = (message: string) => badRequest(`path: ${message}`, 'path')

/** Checks a workspace path and says whether it is a job file. @throws HttpError 400 `path`. */
export function parseResourcePath(path: unknown): ResourcePath {
  if (typeof path !== 'string' || path === '') throw invalid('is required, e.g. notes/ideas.md')
  checkCommon(path)
  const segments = path.split('/')
  for (const segment of segments) {
    if (segment === '') throw invalid('has an empty folder name (a doubled or trailing /)')
    if (segment === '.' || segment === '..') throw invalid('must not contain . or .. as a folder name')
    if (!SEGMENT.test(segment)) {
      throw invalid(`"${segment}": names may use only letters, digits, dots, dashes and underscores`)
    }
  }
  if (segments[0] !== JOBS_FOLDER) return { kind: 'file', path }
  const file = segments.length === 2 ? segments[1]! : ''
  if (!file.endsWith('.md') || file === '.md') {
    throw invalid('the jobs/ folder holds only job files, named jobs/<name>.md')
  }
  return { kind: 'job', path, name: file.slice(0, -'.md'.length) }
}

/** Checks a listing prefix (may be empty, may end in /, may stop mid-name). @throws 400 `prefix`. */
export function parsePrefix(prefix: unknown): string {
  if (prefix === undefined || prefix === null || prefix === '') return ''
  if (typeof prefix !== 'string') throw badRequest('prefix: must be a string', 'prefix')
  try {
    checkCommon(prefix)
  } catch {
    throw badRequest('prefix: must be a relative path like jobs/ or notes/', 'prefix')
  }
  const segments = prefix.split('/')
  const bad = segments.some(
    (s, i) => s === '..' || (s === '' && i < segments.length - 1) || (s !== '' && !SEGMENT.test(s)),
  )
  if (bad) throw badRequest('prefix: must be a relative path like jobs/ or notes/', 'prefix')
  return prefix
}

function checkCommon(path: string) {
  if (path.length > MAX_PATH_LENGTH) throw invalid(`must be at most ${MAX_PATH_LENGTH} characters`)
  if (path.startsWith('/')) throw invalid('must be relative, without a leading /')
  if (path.includes('\\')) throw invalid('must use / between folders, not \\')
}

const CONTENT_TYPES: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  json: 'application/json',
  yaml: 'text/yaml',
  yml: 'text/yaml',
  csv: 'text/csv',
}

/** The media type a file is served as; anything unknown (HTML included) is plain text. */
export function contentTypeFor(path: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase()
  return (ext && CONTENT_TYPES[ext]) || 'text/plain'
}
