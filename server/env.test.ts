import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { envFilePath, parseEnv, type EnvError } from './env.ts'

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
  ])('names %s when it is %s', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`${name}:`))
  })
})

describe('variables required together', () => {
  it('requires BETTER_AUTH_SECRET in production only', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(/BETTER_AUTH_SECRET: required in production/)
    expect(() => parseEnv({ NODE_ENV: 'development' })).not.toThrow()
    expect(parseEnv({ NODE_ENV: 'production', BETTER_AUTH_SECRET: 'x'.repeat(32) }).NODE_ENV).toBe(
      'production',
    )
  })

  it('requires OPENAI_COMPATIBLE_BASE_URL for an openai-compatible model', () => {
    expect(() => parseEnv({ AGENT_MODEL: 'openai-compatible:llama' })).toThrow(/OPENAI_COMPATIBLE_BASE_URL:/)
    const ok = {
      AGENT_MODEL: 'openai-compatible:llama',
      OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:8080/v1',
    }
    expect(parseEnv(ok).OPENAI_COMPATIBLE_BASE_URL).toBe('http://127.0.0.1:8080/v1')
  })

  it('reports every problem at once, one per variable', () => {
    try {
      parseEnv({ NODE_ENV: 'production', PORT: 'abc', ANTHROPIC_BASE_URL: 'https://api.example.com' })
      expect.unreachable()
    } catch (err) {
      const names = (err as EnvError).problems.map((p) => p.split(':')[0]).sort()
      expect(names).toEqual(['ANTHROPIC_BASE_URL', 'BETTER_AUTH_SECRET', 'PORT'])
    }
  })
})

describe('envFilePath', () => {
  it('reads .env in the working directory unless ENV_FILE says otherwise', () => {
    expect(envFilePath({})).toBe(path.resolve('.env'))
    expect(envFilePath({ ENV_FILE: 'config/prod.env' })).toBe(path.resolve('config/prod.env'))
    expect(envFilePath({ ENV_FILE: 'off' })).toBeNull()
  })
})
