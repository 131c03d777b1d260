/**
 * unbash's tree as plain objects, with a bound on how deep its expansions nest. unbash builds word
 * parts lazily: each `$(…)`, `${…}`, `$((…))` or `<(…)` inside another is read again, its text
 * whole, when its parts are first asked for, and 256 levels are allowed. Copying every level, as
 * `JSON.parse(JSON.stringify(tree))` did, read a 16 KiB line of `$(` 256 deep 256 times (0.5 s)
 * and a 64 KiB one for one to six seconds. The copy counts the levels with
 * unbash's own reading of the line, so quotes, comments and here-documents cannot hide one, and
 * stops before it reads a level past the limit.
 */
import type { Json } from './policy-words.ts'

/**
 * Expansions a line may nest inside one another: twice the deepest honest one we could write,
 * `"$(dirname "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")")"` (four). Each level may read the
 * whole line again: 8 levels of a 64 KiB line cost tens of milliseconds, 16 about 0.1–0.2 s.
 */
export const MAX_NESTING = 8

/** A line nested past MAX_NESTING: refused as too complex before the deeper levels are read. */
export class NestedTooDeep extends Error {}

/** The part types whose inside unbash reads again when it is asked for (a level of nesting). */
const NESTING = new Set([
  'CommandExpansion',
  'ProcessSubstitution',
  'ParameterExpansion',
  'ArithmeticExpansion',
  'ArithmeticCommandExpansion',
  'ExtendedGlob',
  'BraceExpansion',
])

/**
 * The tree as `JSON.parse(JSON.stringify(tree))` would give it (every lazy part read), except
 * that `undefined` stays `undefined` in arrays. @throws NestedTooDeep past MAX_NESTING levels.
 */
export function plainTree(value: unknown, nesting = 0): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value
  // The type is an own field: it is known before `toJSON` reads the level it opens.
  const type = (value as Json).type
  const depth = typeof type === 'string' && NESTING.has(type) ? nesting + 1 : nesting
  if (depth > MAX_NESTING) throw new NestedTooDeep()
  const toJSON = (value as { toJSON?: unknown }).toJSON
  const json: unknown = typeof toJSON === 'function' ? toJSON.call(value) : value
  if (json === null || typeof json !== 'object') return json
  if (Array.isArray(json)) return json.map((item) => plainTree(item, depth))
  const out: Json = {}
  for (const [key, child] of Object.entries(json)) {
    const copy = plainTree(child, depth)
    if (copy !== undefined) out[key] = copy
  }
  return out
}
