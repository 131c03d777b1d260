/**
 * The jobs list's URL state (`?q=&filter=&sort=&dir=`): parsed on the server for the query and
 * in the browser for sorting, so a shared link shows the same list.
 */
export const JOB_FILTERS = [
  { id: 'all', label: 'All' },
  { id: 'personal', label: 'Personal' },
  { id: 'shared', label: 'Shared' },
  { id: 'paused', label: 'Paused' },
  { id: 'failing', label: 'Failing' },
  { id: 'denied', label: 'Commands denied' },
] as const
export type JobFilter = (typeof JOB_FILTERS)[number]['id']

export const JOB_SORTS = [
  { id: 'name', label: 'Name' },
  { id: 'next', label: 'Next run' },
  { id: 'last', label: 'Last run' },
] as const
export type JobSort = (typeof JOB_SORTS)[number]['id']

export type JobListParams = { q: string; filter: JobFilter; sort: JobSort; dir: 'asc' | 'desc' }

const isOneOf = <T extends string>(values: readonly { id: T }[], v: string | null): v is T =>
  values.some((x) => x.id === v)

/** Reads the list state from search params; anything unknown falls back to the default. */
export function readJobListParams(params: URLSearchParams): JobListParams {
  const filter = params.get('filter')
  const sort = params.get('sort')
  return {
    q: (params.get('q') ?? '').trim(),
    filter: isOneOf(JOB_FILTERS, filter) ? filter : 'all',
    sort: isOneOf(JOB_SORTS, sort) ? sort : 'name',
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
  }
}

/** The jobs service's list query for a filter. */
export function toListQuery(p: JobListParams): {
  scope: 'all' | 'personal' | 'shared'
  q?: string
  status?: string
} {
  const q = p.q || undefined
  if (p.filter === 'personal' || p.filter === 'shared') return { scope: p.filter, q }
  if (p.filter === 'paused' || p.filter === 'failing' || p.filter === 'denied')
    return { scope: 'all', q, status: p.filter }
  return { scope: 'all', q }
}

type Sortable = { name: string; nextRun: string | Date | null; lastRun: string | Date | null }

const time = (v: string | Date | null) => (v ? new Date(v).getTime() : null)

/** Sorts by the chosen column; jobs without a time (never run, paused) go last either way. */
export function sortJobs<T extends Sortable>(jobs: readonly T[], sort: JobSort, dir: 'asc' | 'desc'): T[] {
  const sign = dir === 'asc' ? 1 : -1
  return [...jobs].sort((a, b) => {
    if (sort === 'name') return sign * a.name.localeCompare(b.name)
    const [x, y] = sort === 'next' ? [time(a.nextRun), time(b.nextRun)] : [time(a.lastRun), time(b.lastRun)]
    if (x === y) return a.name.localeCompare(b.name)
    if (x === null) return 1
    if (y === null) return -1
    return sign * (x - y)
  })
}

/**
 * A copy of `params` with some keys set (or removed when the value is empty or the default). Any
 * change but the page itself goes back to the first page: a cursor belongs to one filter and sort.
 */
export function withParams(params: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(params)
  if (!('cursor' in changes)) next.delete('cursor')
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') next.delete(key)
    else next.set(key, value)
  }
  const s = next.toString()
  return s ? `?${s}` : '?'
}
