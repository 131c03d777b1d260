/**
 * Encryption of stored model keys: AES-256-GCM with a key derived (HKDF-SHA256) from the app
 * secret, so a database dump alone reveals nothing. Rotating BETTER_AUTH_SECRET makes stored
 * keys unreadable: people then enter them again (decryptSecret throws, callers treat it as "no key").
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { resolveAuthSecret } from '../auth/secret.ts'

const IV_BYTES = 12
const TAG_BYTES = 16
// Fixed salt and info: the derived key must be the same on every instance and restart.
const SALT = 'clockwork/model-keys'
const INFO = 'aes-256-gcm v1'

/** The 32-byte encryption key for `secret` (defaults to the app secret). */
export function deriveKey(secret: string = resolveAuthSecret(), info: string = INFO): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, SALT, info, 32))
}

/** Encrypts `plain`; returns base64 of iv | tag | ciphertext (a fresh random iv every time). */
export function encryptSecret(plain: string, key: Buffer = deriveKey()): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
}

/** Decrypts what {@link encryptSecret} made; throws when it was tampered with or the key differs. */
export function decryptSecret(blob: string, key: Buffer = deriveKey()): string {
  const bytes = Buffer.from(blob, 'base64')
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('stored secret is truncated')
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES))
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  )
}
