/**
 * What a JSON text would cost to parse, found without parsing it. `JSON.parse` runs on the one
 * event loop and costs by the values it makes, not by the bytes: 30 MB of `[{},{},…]` (ten million
 * empty objects) held the loop for twenty seconds, and as many nested brackets for longer, while
 * 30 MB of one string (a picture in base64) parses in milliseconds. So a body a tenant sends is
 * scanned first: a linear pass that jumps over strings and allocates nothing, stopping as soon as
 * the text opens too many arrays or objects at once, or holds too many values.
 */

/** How deep and how many: arrays and objects open at once, and values in all (bounds for a body). */
export type JsonBounds = { maxDepth: number; maxValues: number }

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d

/** What a scan found: the values it counted (up to one past the bound), and why the text is past `bounds`, if it is. */
export type JsonShape = { values: number; past: string | null }

/**
 * How many values `text`, read as JSON, holds, and whether it is past `bounds`. Values are counted as
 * the arrays and objects opened plus the commas between elements and members: what the parser's
 * work grows with (an array of n numbers counts n, of n empty objects 2n, each object costing the
 * parser about as much as two numbers). The scan stops at the first bound passed.
 */
export function measureJson(text: string, bounds: JsonBounds): JsonShape {
  let depth = 0
  let values = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) i = closingQuote(text, i)
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > bounds.maxDepth)
        return {
          values,
          past: `it has more than ${bounds.maxDepth} arrays or objects nested inside each other`,
        }
      if (++values > bounds.maxValues) return { values, past: tooMany(bounds) }
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--
    else if (c === COMMA && ++values > bounds.maxValues) return { values, past: tooMany(bounds) }
  }
  return { values, past: null }
}

/** Why `text`, read as JSON, is past `bounds` (a sentence), or null when it is within them. */
export const jsonPastBounds = (text: string, bounds: JsonBounds): string | null =>
  measureJson(text, bounds).past

const tooMany = (bounds: JsonBounds) => `it holds more than ${bounds.maxValues.toLocaleString('en')} values`

/** The index of the quote that ends the string opened at `open` (the text's length when none does). */
function closingQuote(text: string, open: number): number {
  for (let at = open; ;) {
    at = text.indexOf('"', at + 1)
    if (at === -1) return text.length
    // Escaped when an odd number of backslashes stands right before it.
    let slashes = 0
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++
    if (slashes % 2 === 0) return at
  }
}
