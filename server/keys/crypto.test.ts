import { describe, expect, it } from 'vitest'
import { decryptSecret, deriveKey, encryptSecret } from './crypto.ts'

const key = deriveKey('a-test-secret-a-test-secret-a-test-secret')

describe('model key encryption', () => {
  it('round-trips and never stores the plain text', () => {
    const plain = 'sk-ant-api03-PLANTED-abcdef123456'
    const blob = encryptSecret(plain, key)
    expect(blob).not.toContain('PLANTED')
    expect(Buffer.from(blob, 'base64').toString('latin1')).not.toContain('PLANTED')
    expect(decryptSecret(blob, key)).toBe(plain)
  })

  it('uses a fresh iv for every encryption', () => {
    expect(encryptSecret('same', key)).not.toBe(encryptSecret('same', key))
  })

  it('derives a different key from a different secret, and that key cannot decrypt', () => {
    const other = deriveKey('another-secret-another-secret-another-secret')
    expect(other.equals(key)).toBe(false)
    expect(() => decryptSecret(encryptSecret('x', key), other)).toThrow()
  })

  it('rejects a tampered or truncated blob', () => {
    const bytes = Buffer.from(encryptSecret('sk-secret-value', key), 'base64')
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1
    expect(() => decryptSecret(bytes.toString('base64'), key)).toThrow()
    expect(() => decryptSecret('AAAA', key)).toThrow(/truncated/)
  })
})
