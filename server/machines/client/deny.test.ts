import { describe, expect, it } from 'vitest'
import { deniedBy, simpleCommands } from './deny.ts'

describe('the client deny list', () => {
  it('splits a line into its simple commands, unwrapping sh -c and env', () => {
    expect(simpleCommands("ls; echo a && env FOO=1 sudo id | sh -c 'rm -rf /'")).toEqual([
      'ls',
      'echo a',
      'sudo id',
      "sh -c 'rm -rf /'",
      'rm -rf /',
    ])
  })

  it('denies built-in patterns anywhere in the line, and the extra ones given with --deny', () => {
    expect(deniedBy('make test && sudo make install', [])).toBe('sudo *')
    expect(deniedBy('echo $(mkfs.ext4 /dev/sda)', [])).toBe('mkfs*')
    expect(deniedBy("bash -c 'reboot now'", [])).toBe('reboot*')
    expect(deniedBy('git push --force', ['git push*'])).toBe('git push*')
    expect(deniedBy('echo sudo; git status', ['git push*'])).toBeUndefined()
  })

  it('reads only `*` in a pattern: `?`, brackets, braces and backslashes stand for themselves', () => {
    expect(deniedBy('ls a?', ['ls a?'])).toBe('ls a?')
    expect(deniedBy('ls ab', ['ls a?'])).toBeUndefined()
    expect(deniedBy('cat [ab].txt', ['cat [ab]*'])).toBe('cat [ab]*')
    expect(deniedBy('cat a.txt', ['cat [ab]*'])).toBeUndefined()
    expect(deniedBy('echo {a,b}', ['echo {a,b}'])).toBe('echo {a,b}')
    expect(deniedBy('echo a', ['echo {a,b}'])).toBeUndefined()
    expect(deniedBy(':(){ :|:& };:', [])).toBe(':(){*')
  })

  it("judges a 60 KB line the agent wrote against the owner's four-star pattern", () => {
    // A regular expression of `.*` per star backtracked: minutes for this line (10 KB took 4 s),
    // the client answering nothing meanwhile. The matcher is linear in the line now.
    const line = `true || git${' push --force'.repeat(4_600)}`
    expect(deniedBy(line, ['git * push * --force * --no-verify*'])).toBeUndefined()
    expect(deniedBy(`${line} --no-verify`, ['git * push * --force * --no-verify*'])).toBe(
      'git * push * --force * --no-verify*',
    )
  })
})
