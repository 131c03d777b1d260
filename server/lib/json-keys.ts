/**
 * Keys a JSON text gives twice in one object. `JSON.parse` keeps the last silently, so
 * `{"scope":"personal","scope":"shared"}` is read as shared while a reader of the first value (a
 * log, a proxy, a person) sees personal: the API refuses such a body instead of choosing.
 */

/** More than this many are not named: a hostile body could repeat keys by the thousand. */
export const MAX_NAMED_KEYS = 50

/**
 * A longer path is named by its end (`…` and the last characters): nesting can make a path far
 * longer than the body, and fifty of them named whole made an answer ten times its request's size.
 */
export const MAX_NAMED_PATH = 200

type Frame = { keys: Set<string> | null; path: string; index: number; key: string }

/**
 * The path of every key given more than once in one object of `text` (`scope`, `extra.owner`,
 * `message.parts.0.type`), each once, in the order found. `text` must be valid JSON (parse it
 * first). Iterative, so nesting as deep as the body limit allows costs no stack; it stops at
 * {@link MAX_NAMED_KEYS} found.
 */
export function repeatedJsonKeys(text: string): string[] {
  const stack: Frame[] = []
  const found = new Set<string>()
  let expectKey = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '"') {
      let end = i + 1
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1
      const top = stack.at(-1)
      if (expectKey && top?.keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string
        if (top.keys.has(key) && found.add(named(join(top.path, key))).size === MAX_NAMED_KEYS) break
        top.keys.add(key)
        top.key = key
        expectKey = false
      }
      i = end
    } else if (c === '{' || c === '[') {
      const parent = stack.at(-1)
      const path = parent ? join(parent.path, parent.keys ? parent.key : String(parent.index)) : ''
      stack.push({ keys: c === '{' ? new Set() : null, path, index: 0, key: '' })
      expectKey = c === '{'
    } else if (c === '}' || c === ']') {
      stack.pop()
    } else if (c === ',') {
      const top = stack.at(-1)
      if (top?.keys) expectKey = true
      else if (top) top.index++
    }
  }
  return [...found]
}

/** What a caller is told of one repeated key (in the query or a body), by its path. */
export const repeatedKeyMessage = (path: string) => `${path}: is given more than once; give it once`

const join = (path: string, key: string) => (path ? `${path}.${key}` : key)

const named = (path: string) =>
  path.length <= MAX_NAMED_PATH ? path : `…${path.slice(path.length - MAX_NAMED_PATH + 1)}`
