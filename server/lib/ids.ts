import { randomBytes } from 'node:crypto'

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz'

/** A short random id with a readable prefix, e.g. `job_8f3k2...`. */
export function newId(prefix: string): string {
  const bytes = randomBytes(16)
  let out = ''
  for (const b of bytes) out += alphabet[b % alphabet.length]
  return `${prefix}_${out}`
}
