/**
 * docs/api.md lists every endpoint under `/_agent-native/` and only endpoints that exist: each
 * resource route in app/routes has a `METHOD /path` line there, and each path the docs name (in
 * api.md relative to `/_agent-native`, elsewhere in full) is served by a route. Methods are left to
 * review: a route's methods are code, not a file name.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')
const PREFIX = '[_agent-native].'

/** A route file's URL below `/_agent-native`, params as `:` and a splat as `*` (`jobs/:/run`). */
export function routePath(file: string): string {
  const name = file.replace(/\.tsx?$/, '').slice(PREFIX.length)
  return name
    .replace(/\[\.\]/g, '\0') // `calendar[.]ics`: an escaped dot stays in the segment
    .split('.')
    .filter((segment) => segment !== '_index')
    .map((segment) => segment.replace(/\0/g, '.').replace(/_$/, ''))
    .map((segment) => (segment === '$' ? '*' : segment.startsWith('$') ? ':' : segment))
    .join('/')
}

/** The paths named as `METHOD /path` in a text, params (`:id`, `<path>`) as `:`, queries dropped. */
export function documentedPaths(text: string, base = ''): string[] {
  const found = text.matchAll(
    /`(?:(?:GET|POST|PUT|PATCH|DELETE)(?:,? (?:GET|POST|PUT|PATCH|DELETE))*) (\/[^`\s?]*)/g,
  )
  return [...found]
    .map((m) => m[1]!)
    .filter((p) => p.startsWith(base))
    .map((p) =>
      p
        .slice(base.length)
        .replace(/^\//, '')
        .split('/')
        .map((segment) => (/^(:\w+|<[^>]+>)$/.test(segment) ? ':' : segment))
        .join('/'),
    )
}

/** Whether a route serves a documented path: a param or splat takes any segment, a literal only itself. */
export function serves(route: string, documented: string): boolean {
  const r = route.split('/')
  const d = documented.split('/')
  for (let i = 0; i < r.length; i++) {
    if (r[i] === '*') return d.length > i
    if (i >= d.length) return false
    if (r[i] !== ':' && r[i] !== d[i]) return false
  }
  return r.length === d.length
}

// `[_agent-native].$.ts` answers every unknown path with a JSON 404; it is not an endpoint.
const routes = readdirSync(path.join(root, 'app/routes'))
  .filter((file) => file.startsWith(PREFIX) && file !== `${PREFIX}$.ts`)
  .map(routePath)

describe('docs/api.md', () => {
  const api = documentedPaths(read('docs/api.md'))

  it('reads the routes and the documented paths', () => {
    expect(routes).toEqual(expect.arrayContaining(['jobs', 'jobs/:/run', 'calendar.ics', 'auth/*']))
    expect(api).toEqual(expect.arrayContaining(['jobs', 'jobs/:/run', 'resources/personal/:']))
    expect(documentedPaths(read('docs/jobs.md'), '/_agent-native')).toContain('runs/:/deliveries')
  })

  it('lists every /_agent-native route', () => {
    expect(routes.filter((route) => !api.some((p) => serves(route, p)))).toEqual([])
  })

  it('names only paths a route serves', () => {
    expect(api.filter((p) => !routes.some((route) => serves(route, p)))).toEqual([])
  })
})

describe('the other docs', () => {
  it('name only /_agent-native paths a route serves', () => {
    const docs = readdirSync(path.join(root, 'docs'))
      .filter((f) => f.endsWith('.md') && f !== 'api.md')
      .map((f) => `docs/${f}`)
    const unknown = ['README.md', ...docs].flatMap((file) =>
      documentedPaths(read(file), '/_agent-native')
        .filter((p) => !routes.some((route) => serves(route, p)))
        .map((p) => `${file}: /_agent-native/${p}`),
    )
    expect(unknown).toEqual([])
  })
})

describe('the API docs check itself', () => {
  it('turns route files into paths', () => {
    expect(routePath('[_agent-native].jobs.$id_.run.ts')).toBe('jobs/:/run')
    expect(routePath('[_agent-native].jobs._index.ts')).toBe('jobs')
    expect(routePath('[_agent-native].calendar[.]ics.ts')).toBe('calendar.ics')
    expect(routePath('[_agent-native].resources.$scope.$.ts')).toBe('resources/:/*')
  })

  it('reads documented paths and matches them to routes', () => {
    const text = '- `GET /jobs/:id/runs?limit=`, `PUT /resources/personal/<path>` and `DELETE` alone'
    expect(documentedPaths(text)).toEqual(['jobs/:/runs', 'resources/personal/:'])
    expect(serves('jobs/:/runs', 'jobs/:/runs')).toBe(true)
    expect(serves('secrets/:/:', 'secrets/org/:')).toBe(true)
    expect(serves('resources/:/*', 'resources/personal/:')).toBe(true)
    expect(serves('jobs/:', 'jobs/:/runs')).toBe(false)
    expect(serves('jobs/:/run', 'jobs/:')).toBe(false)
    expect(serves('jobs/new', 'jobs/:')).toBe(false)
  })
})
