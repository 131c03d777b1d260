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

// The characters the scan acts on, by code: comparing numbers, it reads no one-character strings.
const [QUOTE, BACKSLASH, COMMA] = [0x22, 0x5c, 0x2c]
const [OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY] = [0x7b, 0x7d, 0x5b, 0x5d]

/**
 * One open object or array. Its path is not kept: it is made from the parents only when a key is
 * named, and an object's key set only when it has a key, so a message of a million empty objects
 * costs one small record apiece (decision 0478's scan ran beside JSON.parse on every socket message).
 */
type Frame = {
  parent: Frame | undefined
  isObject: boolean
  keys: Set<string> | null
  index: number
  key: string
}

/**
 * Every key of `text` given more than once in one object, named {@link RESERVED_KEYS} or (unless
 * `longKeys` is false) longer than {@link MAX_KEY_LENGTH}, each once, in the order found, by its path (`scope`, `extra.owner`,
 * `message.parts.0.type`; a long key by its start and `…`). `text` must be valid JSON (parse it
 * first). Iterative, so nesting as deep as the body limit allows costs no stack; it stops at
 * {@link MAX_NAMED_KEYS} found.
 */
export function jsonKeyProblems(text: string, { longKeys = true }: KeyRules = {}): KeyProblem[] {
  const found = new Map<string, string>()
  const note = (frame: Frame, key: string, message: (path: string) => string) => {
    const name = named(join(pathOf(frame), key))
    if (!found.has(name)) found.set(name, message(name))
    return found.size === MAX_NAMED_KEYS
  }
  let top: Frame | undefined
  let expectKey = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      let end = i + 1
      let escaped = false
      for (let d = text.charCodeAt(end); d !== QUOTE; d = text.charCodeAt(end)) {
        if (d === BACKSLASH) {
          escaped = true
          end += 2
        } else end++
      }
      if (expectKey && top) {
        let key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end)
        const keys = (top.keys ??= new Set())
        let full = false
        if (longKeys && key.length > MAX_KEY_LENGTH) {
          key = `${key.slice(0, 40)}…`
          full = note(top, key, longKeyMessage)
        } else if (RESERVED_KEYS.has(key)) full = note(top, key, reservedKeyMessage)
        else if (keys.has(key)) full = note(top, key, repeatedKeyMessage)
        if (full) break
        keys.add(key)
        top.key = key
        expectKey = false
      }
      i = end
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      top = { parent: top, isObject: c === OPEN_OBJECT, keys: null, index: 0, key: '' }
      expectKey = top.isObject
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      top = top?.parent
    } else if (c === COMMA && top) {
      if (top.isObject) expectKey = true
      else top.index++
    }
  }
  return [...found].map(([path, message]) => ({ path, message }))
}

/** Where `frame` sits: its parents' keys and indexes, joined (`list.1`), `''` at the top. */
function pathOf(frame: Frame): string {
  const parts: string[] = []
  for (let f = frame; f.parent; f = f.parent)
    parts.push(f.parent.isObject ? f.parent.key : String(f.parent.index))
  return parts.reverse().join('.')
}

/** What a caller is told of one repeated key (in the query or a body), by its path. */
export const repeatedKeyMessage = (path: string) => `${path}: is given more than once; give it once`

const reservedKeyMessage = (path: string) => `${path}: is not a key the server takes (__proto__ is refused)`

const longKeyMessage = (path: string) => `${path}: a key must be at most ${MAX_KEY_LENGTH} characters`

const join = (path: string, key: string) => (path ? `${path}.${key}` : key)

const named = (path: string) =>
  path.length <= MAX_NAMED_PATH ? path : `…${path.slice(path.length - MAX_NAMED_PATH + 1)}`
