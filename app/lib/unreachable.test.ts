import { describe, expect, it } from 'vitest'
import { isUnreachable } from './unreachable.ts'

/** An error response as a route's boundary receives it (what `isRouteErrorResponse` recognises). */
const routeError = (status: number): unknown => ({ status, statusText: '', internal: false, data: 'x' })

describe('isUnreachable', () => {
  it('is a fetch that got no answer, in the words of each browser', () => {
    for (const message of [
      'Failed to fetch',
      'NetworkError when attempting to fetch resource.',
      'Load failed',
      'Network request failed',
    ]) {
      expect(isUnreachable(new TypeError(message)), message).toBe(true)
    }
  })

  it('is not a bug in a page, nor an error the server answered', () => {
    expect(isUnreachable(new TypeError("Cannot read properties of undefined (reading 'name')"))).toBe(false)
    expect(isUnreachable(new Error('Failed to fetch'))).toBe(false)
    expect(isUnreachable(routeError(500))).toBe(false)
    expect(isUnreachable(routeError(404))).toBe(false)
    expect(isUnreachable('Failed to fetch')).toBe(false)
  })

  it('is a gateway answering for an app that did not', () => {
    expect(isUnreachable(routeError(502))).toBe(true)
    expect(isUnreachable(routeError(504))).toBe(true)
  })
})
