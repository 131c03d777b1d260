import { describe, expect, it } from 'vitest'
import { compileGlob, globMatches } from './glob.ts'

const match = (pattern: string, text: string) => globMatches(compileGlob(pattern), text)

describe('globs tenants write', () => {
  it.each([
    ['npm *', 'npm install left-pad', true],
    ['npm *', 'npx x', false],
    ['git push *', 'git push origin main', true],
    ['rm -rf *', 'rm -rf /tmp/x', true],
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

  it('stays linear on a pattern that makes a backtracking regex explode', () => {
    // picomatch's regex for this pattern takes over a second at 40 characters, and grows with each.
    const pattern = `${'*a'.repeat(60)}*b`
    expect(match(pattern, 'a'.repeat(64 * 1024))).toBe(false)
    expect(match(pattern, `${'a'.repeat(64 * 1024)}b`)).toBe(true)
  })
})
