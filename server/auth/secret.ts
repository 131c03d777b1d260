import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { env } from '../env.ts'

/**
 * The app secret signs sessions and derives the key that encrypts stored model keys.
 * Production must set BETTER_AUTH_SECRET; elsewhere one is made once and kept under
 * .data/ so sessions survive restarts.
 */
export function resolveAuthSecret(): string {
  const config = env()
  if (config.BETTER_AUTH_SECRET) return config.BETTER_AUTH_SECRET
  if (config.NODE_ENV === 'production') {
    throw new Error('Invalid environment:\n  BETTER_AUTH_SECRET: required in production (32+ characters)')
  }
  const file = path.resolve('.data', 'auth-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(path.dirname(file), { recursive: true })
  const secret = randomBytes(32).toString('base64url')
  writeFileSync(file, secret + '\n', { mode: 0o600 })
  return secret
}
