import { describe, expect, it } from 'vitest'
import { conditionalJson, etagFor, matchesIfNoneMatch } from './conditional.ts'

const get = (headers: Record<string, string> = {}) => new Request('http://x/_agent-native/jobs', { headers })

describe('conditional JSON reads', () => {
  it('tags the body, and answers 304 with no body when If-None-Match names the tag', async () => {
    const first = conditionalJson(get(), { jobs: [1, 2] })
    expect(first.status).toBe(200)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^W\/"[\w-]{20}"$/)
    expect(first.headers.get('cache-control')).toBe('private, no-cache')
    expect(await first.json()).toEqual({ jobs: [1, 2] })

    const again = conditionalJson(get({ 'if-none-match': etag }), { jobs: [1, 2] })
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    expect(await again.text()).toBe('')

    const changed = conditionalJson(get({ 'if-none-match': etag }), { jobs: [1, 2, 3] })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
  })

  it('puts a version first in the tag, so the tag also works as If-Match', () => {
    expect(etagFor('{"job":1}', 3)).toMatch(/^"3\.[\w-]{20}"$/)
  })

  it('compares weakly and accepts lists and *', () => {
    expect(matchesIfNoneMatch('"abc"', 'W/"abc"')).toBe(true)
    expect(matchesIfNoneMatch('W/"x", W/"abc"', 'W/"abc"')).toBe(true)
    expect(matchesIfNoneMatch('*', '"1.abc"')).toBe(true)
    expect(matchesIfNoneMatch('"abd"', 'W/"abc"')).toBe(false)
    expect(matchesIfNoneMatch(null, 'W/"abc"')).toBe(false)
  })
})
