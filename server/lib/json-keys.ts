/**
 * Keys a JSON text should not have. A key given twice in one object: `JSON.parse` keeps the last
 * silently, so `{"scope":"personal","scope":"shared"}` is read as shared while a reader of the first
 * value (a log, a proxy, a person) sees personal (decision 0475). A key named `__proto__`: zod
 * drops it from a record without a word (decision 0478). A key longer than {@link MAX_KEY_LENGTH}:
 * no field or record key is that long, and only the body limit bounded it. The API, the MCP
 * endpoint and the machine socket refuse such text, naming each key by its path.
 */

/** More than this many are not named: a hostile body could repeat keys by the thousand. */
export const MAX_NAMED_KEYS = 50

/**
 * A longer path is named by its end (`…` and the last characters): nesting can make a path far
 * longer than the body, and fifty of them named whole made an answer ten times its request's size.
 */
export const MAX_NAMED_PATH = 200

/** The longest key any JSON object given to the server may have (a record's keys are bounded lower). */
export const MAX_KEY_LENGTH = 200

/**
 * Key names refused anywhere in a JSON text. `constructor` and `prototype` are kept as data by
 * JSON.parse and zod alike, and a tool's output may well carry them, so they are not refused.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__'])

/**
 * `longKeys: false` leaves long keys alone: a chat message answering a confirmation and a machine's
 * messages carry tools' outputs back, whose keys (a dictionary by file path) are not the server's
 * to bound; refusing them would stop the person approving or end their machine's connection.
 */
export type KeyRules = { longKeys?: boolean }

/** One key refused: where it is (`extra.__proto__`) and what its caller is told (`path: …`). */
export type KeyProblem = { path: string; message: string }

type Frame = { keys: Set<string> | null; path: string; index: number; key: string }

/**
 * Every key of `text` given more than once in one object, named {@link RESERVED_KEYS} or (unless
 * `longKeys` is false) longer than {@link MAX_KEY_LENGTH}, each once, in the order found, by its path (`scope`, `extra.owner`,
 * `message.parts.0.type`; a long key by its start and `…`). `text` must be valid JSON (parse it
 * first). Iterative, so nesting as deep as the body limit allows costs no stack; it stops at
 * {@link MAX_NAMED_KEYS} found.
 */
export function jsonKeyProblems(text: string, { longKeys = true }: KeyRules = {}): KeyProblem[] {
  const stack: Frame[] = []
  const found = new Map<string, string>()
  const note = (path: string, message: (path: string) => string) => {
    const name = named(path)
    if (!found.has(name)) found.set(name, message(name))
    return found.size === MAX_NAMED_KEYS
  }
  let expectKey = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '"') {
      let end = i + 1
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1
      const top = stack.at(-1)
      if (expectKey && top?.keys) {
        let key = JSON.parse(text.slice(i, end + 1)) as string
        let full = false
        if (longKeys && key.length > MAX_KEY_LENGTH) {
          key = `${key.slice(0, 40)}…`
          full = note(join(top.path, key), longKeyMessage)
        } else if (RESERVED_KEYS.has(key)) full = note(join(top.path, key), reservedKeyMessage)
        else if (top.keys.has(key)) full = note(join(top.path, key), repeatedKeyMessage)
        if (full) break
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
  return [...found].map(([path, message]) => ({ path, message }))
}

/** What a caller is told of one repeated key (in the query or a body), by its path. */
export const repeatedKeyMessage = (path: string) => `${path}: is given more than once; give it once`

const reservedKeyMessage = (path: string) => `${path}: is not a key the server takes (__proto__ is refused)`

const longKeyMessage = (path: string) => `${path}: a key must be at most ${MAX_KEY_LENGTH} characters`

const join = (path: string, key: string) => (path ? `${path}.${key}` : key)

const named = (path: string) =>
  path.length <= MAX_NAMED_PATH ? path : `…${path.slice(path.length - MAX_NAMED_PATH + 1)}`
