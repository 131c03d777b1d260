import { describe, expect, it } from 'vitest'
import { readJobListParams, sortJobs, toListQuery, withParams } from './job-list-params.ts'

const job = (name: string, nextRun: string | null, lastRun: string | null) => ({ name, nextRun, lastRun })

describe('jobs list URL state', () => {
  it('reads known values and falls back to defaults for anything else', () => {
    expect(readJobListParams(new URLSearchParams('q= hi &filter=paused&sort=last&dir=desc'))).toEqual({
      q: 'hi',
      filter: 'paused',
      sort: 'last',
      dir: 'desc',
    })
    expect(readJobListParams(new URLSearchParams('filter=nope&sort=size&dir=up'))).toEqual({
      q: '',
      filter: 'all',
      sort: 'name',
      dir: 'asc',
    })
  })

  it('maps filters to the service query', () => {
    const base = { q: '', sort: 'name', dir: 'asc' } as const
    expect(toListQuery({ ...base, filter: 'shared' })).toEqual({ scope: 'shared', q: undefined })
    expect(toListQuery({ ...base, filter: 'failing', q: 'x' })).toEqual({
      scope: 'all',
      q: 'x',
      status: 'failing',
    })
    expect(toListQuery({ ...base, filter: 'all' })).toEqual({ scope: 'all', q: undefined })
  })

  it('sorts by time with never-run jobs last in both directions', () => {
    const jobs = [
      job('b', '2026-01-02T00:00:00Z', null),
      job('a', null, null),
      job('c', '2026-01-01T00:00:00Z', null),
    ]
    expect(sortJobs(jobs, 'next', 'asc').map((j) => j.name)).toEqual(['c', 'b', 'a'])
    expect(sortJobs(jobs, 'next', 'desc').map((j) => j.name)).toEqual(['b', 'c', 'a'])
    expect(sortJobs(jobs, 'name', 'desc').map((j) => j.name)).toEqual(['c', 'b', 'a'])
  })

  it('changes one parameter and drops empty ones', () => {
    const params = new URLSearchParams('q=x&filter=shared')
    expect(withParams(params, { filter: null })).toBe('?q=x')
    expect(withParams(params, { sort: 'next' })).toBe('?q=x&filter=shared&sort=next')
  })

  it('goes back to the first page when anything but the page changes', () => {
    const paged = new URLSearchParams('filter=shared&cursor=abc')
    expect(withParams(paged, { sort: 'last' })).toBe('?filter=shared&sort=last')
    expect(withParams(paged, { cursor: 'def' })).toBe('?filter=shared&cursor=def')
    expect(withParams(paged, { cursor: null })).toBe('?filter=shared')
  })
})
