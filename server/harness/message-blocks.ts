/**
 * Reading a Messages API body nobody has checked the shape of (the run's endpoint judges what a
 * sandbox sends before the provider reads it): a field of anything, and the content of its
 * messages, block by block, a tool result's own content included, each with its path.
 */

/** `value[key]` when `value` is an object, else undefined. */
export const fieldOf = (value: unknown, key: string): unknown =>
  value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined

/** A block's `type`, when it is a string. */
export function typeOf(value: unknown): string | undefined {
  const type = fieldOf(value, 'type')
  return typeof type === 'string' ? type : undefined
}

/** One piece of a message's content: a string it holds, or one of its blocks (an object). */
export type ContentPart = { path: string } & (
  { text: string; block?: undefined } | { block: Record<string, unknown>; text?: undefined }
)

/**
 * Every piece of the messages' content in order: a message's string or its blocks, each block
 * followed by its own content's (a tool result's). One level deep, as the API nests them.
 */
export function contentParts(messages: unknown): ContentPart[] {
  const parts: ContentPart[] = []
  const add = (content: unknown, path: string, nested: boolean) => {
    if (typeof content === 'string') return void parts.push({ path, text: content })
    for (const [i, block] of (Array.isArray(content) ? content : []).entries()) {
      if (!block || typeof block !== 'object') continue
      parts.push({ path: `${path}.${i}`, block: block as Record<string, unknown> })
      if (nested) add(fieldOf(block, 'content'), `${path}.${i}.content`, false)
    }
  }
  for (const [m, message] of (Array.isArray(messages) ? messages : []).entries()) {
    add(fieldOf(message, 'content'), `messages.${m}.content`, true)
  }
  return parts
}
