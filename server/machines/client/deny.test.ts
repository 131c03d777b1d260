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
})
