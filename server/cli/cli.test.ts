/** Real binaries through ShellCliAdapter: no shell, scrubbed env, isolation, caps and timeouts. */
import { describe, expect, it } from 'vitest'
import { usableBwrap } from '../sandbox/host-tools.ts'
import type { CliAdapter } from './adapter.ts'
import { createDefaultCliRegistry } from './registered.ts'
import { CliRegistry } from './registry.ts'
import { ShellCliAdapter } from './shell-cli-adapter.ts'

const bwrap = await usableBwrap()

describe.skipIf(!bwrap)('ShellCliAdapter under bubblewrap (skipped when bwrap is not usable here)', () => {
  it('runs an installed binary with arguments as a list, never through a shell', async () => {
    const echo = new ShellCliAdapter({ command: 'echo', description: 'echo' })
    const r = await echo.execute(['$(id)', '; cat /etc/passwd', '`whoami`'])
    expect(r).toEqual({ stdout: '$(id) ; cat /etc/passwd `whoami`\n', stderr: '', exitCode: 0 })
  })

  it('sees no server env, no host files, no network', async () => {
    process.env.CLOCKWORK_CLI_SECRET = 'planted-cli-secret'
    try {
      const env = await new ShellCliAdapter({ command: 'env', description: 'env' }).execute([])
      expect(env.stdout).not.toContain('planted-cli-secret')
      const cat = await new ShellCliAdapter({ command: 'cat', description: 'cat' }).execute(['/etc/passwd'])
      expect(cat.exitCode).not.toBe(0)
      const git = await new ShellCliAdapter({ command: 'git', description: 'git' }).execute([
        'ls-remote',
        'http://127.0.0.1:5432/x',
      ])
      expect(git.exitCode).not.toBe(0)
      expect(git.stderr).toMatch(/Couldn't connect|Failed to connect|unable to access/i)
    } finally {
      delete process.env.CLOCKWORK_CLI_SECRET
    }
  })

  it('pipes input to stdin (rg over text)', async () => {
    const rg = new ShellCliAdapter({ command: 'rg', description: 'rg' })
    const r = await rg.execute(['-n', 'beta'], 'alpha\nbeta\ngamma\n')
    expect(r).toEqual({ stdout: '2:beta\n', stderr: '', exitCode: 0 })
  })

  it('caps output with a marker and stops a command past its time limit', async () => {
    const yes = new ShellCliAdapter({ command: 'yes', description: 'yes', outputLimit: 1000 })
    const big = await yes.execute([])
    expect(big.stdout.length).toBeLessThan(1100)
    expect(big.stdout).toMatch(/… truncated$/)
    const sleep = new ShellCliAdapter({ command: 'sleep', description: 'sleep', timeoutMs: 300 })
    const slow = await sleep.execute(['10'])
    expect(slow.exitCode).toBeNull()
    expect(slow.stderr).toMatch(/time limit/)
  })
})

describe('CliRegistry', () => {
  it('describes every adapter with its availability', async () => {
    const fake: CliAdapter = {
      name: 'fake',
      description: 'never installed',
      isAvailable: async () => false,
      execute: async () => ({ stdout: '', stderr: '', exitCode: 0 }),
    }
    const registry = new CliRegistry().register(fake)
    expect(registry.get('fake')).toBe(fake)
    expect(registry.get('other')).toBeUndefined()
    expect(await registry.describe()).toEqual([
      { name: 'fake', description: 'never installed', available: false },
    ])
  })

  it('marks a missing binary unavailable and refuses to run it', async () => {
    const missing = new ShellCliAdapter({ command: 'definitely-not-installed-xyz', description: 'x' })
    expect(await missing.isAvailable()).toBe(false)
    expect((await missing.execute([])).stderr).toMatch(/not available/)
  })

  it('the default registry lists git and rg (installed here) and reports ffmpeg by availability', async () => {
    const list = await createDefaultCliRegistry().describe()
    const byName = Object.fromEntries(list.map((d) => [d.name, d.available]))
    expect(byName.git).toBe(Boolean(bwrap))
    expect(byName.rg).toBe(Boolean(bwrap))
    expect(Object.keys(byName)).toContain('ffmpeg')
  })
})
