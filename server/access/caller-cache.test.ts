import { describe, expect, it } from 'vitest'
import { cachedCaller, cachedCallerCount, invalidateCallers, sessionCookieOf } from './caller-cache.ts'

const withSession = (token: string) =>
  new Headers({ cookie: `theme=dark; better-auth.session_token=${token}` })

describe('the caller cache', () => {
  it('finds the session cookie, plain or __Secure-', () => {
    expect(sessionCookieOf(withSession('abc.sig'))).toBe('abc.sig')
    expect(sessionCookieOf(new Headers({ cookie: '__Secure-better-auth.session_token=x.y' }))).toBe('x.y')
    expect(sessionCookieOf(new Headers({ cookie: 'not-better-auth.session_token=x' }))).toBeNull()
    expect(sessionCookieOf(new Headers())).toBeNull()
  })

  it('resolves a session once while cached, and again after a write invalidates it', async () => {
    invalidateCallers()
    let lookups = 0
    const resolve = async () => ({ userId: 'u1', n: ++lookups })
    const [a, b] = await Promise.all([
      cachedCaller(withSession('t1'), resolve),
      cachedCaller(withSession('t1'), resolve),
    ])
    expect(a).toBe(b)
    expect(lookups).toBe(1)
    invalidateCallers()
    expect(await cachedCaller(withSession('t1'), resolve)).toEqual({ userId: 'u1', n: 2 })
  })

  it('does not cache requests without a session, nor failed lookups', async () => {
    invalidateCallers()
    let lookups = 0
    const resolve = async () => ++lookups
    await cachedCaller(new Headers(), resolve)
    await cachedCaller(new Headers(), resolve)
    expect(lookups).toBe(2)
    const failing = () => Promise.reject(new Error('database down'))
    await expect(cachedCaller(withSession('t2'), failing)).rejects.toThrow('database down')
    expect(await cachedCaller(withSession('t2'), resolve)).toBe(3)
  })

  it('stays bounded however many sessions ask', async () => {
    invalidateCallers()
    for (let i = 0; i < 20_000; i++) await cachedCaller(withSession(`token-${i}`), async () => i)
    expect(cachedCallerCount()).toBe(10_000)
  })
})
