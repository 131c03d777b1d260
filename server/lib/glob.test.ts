import { describe, expect, it } from 'vitest'
import { COMPILE_STEPS_PER_CHARACTER, compileGlob, GlobBudgetSpent, globMatches } from './glob.ts'

const match = (pattern: string, text: string) => globMatches(compileGlob(pattern), text)

describe('globs tenants write', () => {
  it.each([
    ['npm *', 'npm install left-pad', true],
    ['npm *', 'npx x', false],
    ['git push *', 'git push origin main', true],
    ['rm -rf *', 'rm -rf build/x', true],
    ['*.ts', 'src/a.ts', true],
    ['python3.? *', 'python3.1 -c x', true],
    ['[a-c]at', 'bat', true],
    ['[!a-c]at', 'bat', false],
    ['{curl,wget} *', 'wget http://x', true],
    ['{curl,wget} *', 'fetch http://x', false],
    ['a{b,{c,d}}e', 'ade', true],
    ['\\*', '*', true],
    ['\\*', 'x', false],
    ['[', '[', true],
  ])('%j against %j is %s', (pattern, text, expected) => {
    expect(match(pattern, text)).toBe(expected)
  })

  it('expands six brace groups into 64 alternatives and keeps seven, or ninety-nine, literal', () => {
    expect(compileGlob('{a,b}'.repeat(6)).alternatives).toHaveLength(64)
    expect(match('{a,b}'.repeat(6), 'abbaab')).toBe(true)
    for (const groups of [7, 99]) {
      // Each alternative was expanded with all the text after it: 2^99 steps for ninety-nine.
      const pattern = '{a,b}'.repeat(groups)
      expect(compileGlob(pattern).alternatives).toHaveLength(1)
      expect(match(pattern, pattern)).toBe(true)
      expect(match(pattern, 'a'.repeat(groups))).toBe(false)
    }
  })

  it('charges a budget for the characters it expands', () => {
    const budget = { steps: COMPILE_STEPS_PER_CHARACTER * 64 * 7 }
    compileGlob('{a,b}'.repeat(6) + 'x', budget)
    expect(budget.steps).toBe(0)
    expect(() => compileGlob('x', budget)).toThrow(GlobBudgetSpent)
  })

  it('stays linear on a pattern that makes a backtracking regex explode', () => {
    // picomatch's regex for this pattern takes over a second at 40 characters, and grows with each.
    const pattern = `${'*a'.repeat(60)}*b`
    expect(match(pattern, 'a'.repeat(64 * 1024))).toBe(false)
    expect(match(pattern, `${'a'.repeat(64 * 1024)}b`)).toBe(true)
  })
})
