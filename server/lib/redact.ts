/**
 * Hides injected secret values in anything shown back (command output, files read, search hits).
 * Longest values first, so a secret that contains another is hidden whole.
 */
export const REDACTED = '••••'

/** Secrets shorter than this are refused at storage time: redacting them would shred all output. */
export const MIN_SECRET_LENGTH = 4

export function makeRedactor(values: Iterable<string>): (text: string) => string {
  const secrets = [...new Set(values)].filter((v) => v.length > 0).sort((a, b) => b.length - a.length)
  if (secrets.length === 0) return (text) => text
  return (text) => {
    let out = text
    for (const secret of secrets) out = out.split(secret).join(REDACTED)
    return out
  }
}
