import { describe, expect, it } from 'vitest'
import { headerRedactor } from './mcp-client.ts'

describe('headerRedactor', () => {
  const redact = headerRedactor({
    Authorization: 'Bearer tok-abc"123',
    'Proxy-Authorization': 'Basic dXNlcjpwYXNz',
    'X-Api-Key': 'key-5678',
    'X-Api-Version': '2',
    'Accept-Language': 'en',
  })

  it('hides each value, whole and after its scheme, naming the header', () => {
    expect(redact('got Bearer tok-abc"123; token tok-abc"123')).toBe(
      'got [redacted header Authorization]; token [redacted header Authorization]',
    )
    expect(redact('dXNlcjpwYXNz and key-5678')).toBe(
      '[redacted header Proxy-Authorization] and [redacted header X-Api-Key]',
    )
  })

  it('hides a value as it reads inside a JSON string', () => {
    expect(redact(JSON.stringify({ authorization: 'Bearer tok-abc"123' }))).toBe(
      '{"authorization":"[redacted header Authorization]"}',
    )
    expect(redact(JSON.stringify('tok-abc"123'))).toBe('"[redacted header Authorization]"')
  })

  it('leaves values too short to be credentials alone', () => {
    expect(redact('version 2, in en')).toBe('version 2, in en')
  })
})
