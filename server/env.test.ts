import { describe, expect, it } from 'vitest'
import { parseEnv } from './env.ts'

describe('parseEnv', () => {
  it('applies defaults for an empty environment', () => {
    const env = parseEnv({})
    expect(env).toMatchObject({ PORT: 3000, PGLITE_DIR: '.data/pglite', SCHEDULER_ENABLED: true })
    expect(env.DATABASE_URL).toBeUndefined()
  })

  it('treats empty strings as unset', () => {
    expect(parseEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined()
  })

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['SCHEDULER_ENABLED', 'maybe'],
    ['BETTER_AUTH_SECRET', 'short'],
    ['AGENT_MODEL', 'gpt-4'],
    ['AGENT_NATIVE_SANDBOX', 'bogus'],
    ['SANDBOX_FETCH_ALLOW', 'http://x/'],
  ])('names %s when it is %s', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`${name}:`))
  })
})
