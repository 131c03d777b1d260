/**
 * Glob matching for patterns tenants write (command policy patterns, a search's glob over a
 * machine's paths) in time bounded by pattern × text, never worse. A regex compiled from a glob
 * backtracks: picomatch's `*a*a*a*a*a*a*a*a*b` against forty `a`s held the event loop for a
 * second, and each more character multiplies it. Supported: `*` (any run of characters, `/`
 * included, as in bash's `[[ x == pattern ]]`), `?`, `[abc]`, `[a-z]`, `[!…]`/`[^…]`, `{a,b}`
 * (expanded, at most MAX_ALTERNATIVES) and `\` escapes; everything else is literal.
 */

type Token =
  | { kind: 'star' }
  | { kind: 'one' }
  | { kind: 'char'; char: string }
  | { kind: 'class'; negate: boolean; parts: [string, string][] }

export const MAX_ALTERNATIVES = 64

export type Glob = { alternatives: Token[][] }

/** Work left for a series of matches (one policy decision): characters × tokens stepped through. */
export type Budget = { steps: number }

/** The budget ran out: the caller refuses rather than keep the event loop. */
export class GlobBudgetSpent extends Error {}

/** More alternatives than MAX_ALTERNATIVES: the whole pattern is kept literal. */
class TooManyAlternatives extends Error {}

/** `a{b,c}d` → `abd`, `acd` (nested too); past MAX_ALTERNATIVES the pattern is kept literal. */
function expandBraces(pattern: string): string[] {
  try {
    return expand(pattern)
  } catch (err) {
    if (err instanceof TooManyAlternatives) return [pattern]
    throw err
  }
}

/**
 * Expands the first brace group with a comma at the top level, each of its alternatives and the
 * text after it once, then joins them. (Expanding each alternative together with the text after it
 * redid that text once per alternative: `{a,b}` forty times took 2^40 steps.) Every alternative is
 * balanced, so no brace pairs across the join. Work: the pattern's length times MAX_ALTERNATIVES.
 */
function expand(pattern: string): string[] {
  let depth = 0
  let open = -1
  const commas: number[] = []
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '\\') {
      i++
      continue
    }
    if (c === '{') {
      if (depth++ === 0) open = i
    } else if (c === '}' && depth > 0) {
      if (--depth === 0 && commas.length > 0) {
        const head = pattern.slice(0, open)
        const bounds = [open, ...commas, i]
        const alternatives: string[] = []
        for (let k = 0; k < bounds.length - 1; k++) {
          alternatives.push(...expand(pattern.slice(bounds[k]! + 1, bounds[k + 1])))
          if (alternatives.length > MAX_ALTERNATIVES) throw new TooManyAlternatives()
        }
        const tails = expand(pattern.slice(i + 1))
        if (alternatives.length * tails.length > MAX_ALTERNATIVES) throw new TooManyAlternatives()
        return alternatives.flatMap((alternative) => tails.map((tail) => head + alternative + tail))
      }
      if (depth === 0) commas.length = 0
    } else if (c === ',' && depth === 1) commas.push(i)
  }
  return [pattern]
}

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = []
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '\\' && i + 1 < pattern.length) tokens.push({ kind: 'char', char: pattern[++i]! })
    else if (c === '*') {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' })
    } else if (c === '?') tokens.push({ kind: 'one' })
    else if (c === '[' && pattern.indexOf(']', i + 2) > 0) {
      const end = pattern.indexOf(']', i + 2)
      let body = pattern.slice(i + 1, end)
      const negate = body.startsWith('!') || body.startsWith('^')
      if (negate) body = body.slice(1)
      const parts: [string, string][] = []
      for (let k = 0; k < body.length; k++) {
        if (body[k + 1] === '-' && k + 2 < body.length) {
          parts.push([body[k]!, body[k + 2]!])
          k += 2
        } else parts.push([body[k]!, body[k]!])
      }
      tokens.push({ kind: 'class', negate, parts })
      i = end
    } else tokens.push({ kind: 'char', char: c })
  }
  return tokens
}

/**
 * What compiling costs against a Budget, per character of the expanded pattern: a token object is
 * made for each, dearer than one step of a match. A policy of 600 patterns, each braced out to 64
 * alternatives of 500 characters, would otherwise be nineteen million tokens made for free.
 */
export const COMPILE_STEPS_PER_CHARACTER = 20

/** @throws GlobBudgetSpent when `budget` cannot pay for the expanded pattern. */
export function compileGlob(pattern: string, budget?: Budget): Glob {
  const expanded = expandBraces(pattern)
  if (budget) {
    const characters = expanded.reduce((sum, alternative) => sum + alternative.length, 0)
    budget.steps -= characters * COMPILE_STEPS_PER_CHARACTER
    if (budget.steps < 0) throw new GlobBudgetSpent('compiling the patterns took too many steps')
  }
  return { alternatives: expanded.map(tokenize) }
}

function takes(token: Token, char: string): boolean {
  if (token.kind === 'one') return true
  if (token.kind === 'char') return token.char === char
  if (token.kind === 'class') return token.negate !== token.parts.some(([lo, hi]) => char >= lo && char <= hi)
  return false
}

/**
 * The classic one-star-backtrack match: a later `*` only ever moves forward, so the work is at
 * most tokens × characters.
 */
function matchTokens(tokens: Token[], text: string, budget?: Budget): boolean {
  let p = 0
  let t = 0
  let star = -1
  let resume = 0
  while (t < text.length) {
    if (budget && --budget.steps < 0) throw new GlobBudgetSpent('the match took too many steps')
    const token = tokens[p]
    if (token && token.kind !== 'star' && takes(token, text[t]!)) {
      p++
      t++
    } else if (token?.kind === 'star') {
      star = p++
      resume = t
    } else if (star >= 0) {
      p = star + 1
      t = ++resume
    } else return false
  }
  while (tokens[p]?.kind === 'star') p++
  return p === tokens.length
}

/** @throws GlobBudgetSpent when `budget` runs out. */
export function globMatches(glob: Glob, text: string, budget?: Budget): boolean {
  return glob.alternatives.some((tokens) => matchTokens(tokens, text, budget))
}
