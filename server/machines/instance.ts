/**
 * This process as a holder of machine sockets: its id and the address other instances forward
 * calls to, and the shared secret those internal calls carry.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { resolveAuthSecret } from '../auth/secret.ts'
import { singleton } from '../lib/singleton.ts'
import { newId } from '../lib/ids.ts'
import { trimTrailing } from '../lib/text.ts'

export const FORWARD_PATH = '/_agent-native/machines/internal/call'

const state = singleton('machines.instance', () => ({ id: newId('inst'), url: '' }))

export const instanceId = () => state.id
export const instanceUrl = () => state.url

/** Set once the server listens: INSTANCE_URL, else this host and port. */
export function setInstanceUrl(url: string) {
  state.url = trimTrailing(url, '/')
}

/** The bearer that instances present to each other (derived from the app secret they share). */
export function forwardToken(): string {
  return createHmac('sha256', resolveAuthSecret()).update('clockwork machines forward').digest('base64url')
}

export function isForwardToken(header: string | null): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '')
  const expected = Buffer.from(forwardToken())
  return given.length === expected.length && timingSafeEqual(given, expected)
}
