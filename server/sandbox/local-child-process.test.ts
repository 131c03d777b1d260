/**
 * Real processes, real bubblewrap: what agent code can and cannot do under the `local` adapter,
 * both with bwrap (this machine) and with the permission model alone (the fallback).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { usableBwrap } from './host-tools.ts'
import { LocalChildProcessAdapter } from './local-child-process.ts'
import { runCode } from './run-code.ts'

const bwrap = await usableBwrap()
const SECRET = 'sk-planted-secret-4f9a'
let outside: string

beforeAll(() => {
  process.env.CLOCKWORK_TEST_SECRET = SECRET
  outside = mkdtempSync(path.join(tmpdir(), 'clockwork-outside-'))
  writeFileSync(path.join(outside, 'private.txt'), SECRET)
})
afterAll(() => {
  delete process.env.CLOCKWORK_TEST_SECRET
  rmSync(outside, { recursive: true, force: true })
})

const modes = [
  ['bubblewrap + permission model', 'auto'],
  ['permission model alone', 'off'],
] as const

describe.each(modes)('local adapter, %s', (_label, mode) => {
  const adapter = new LocalChildProcessAdapter({ bwrap: mode })
  const run = (code: string, timeoutMs = 10_000) => runCode({ code, timeoutMs }, { adapter, actions: {} })

  it.skipIf(mode === 'auto' && !bwrap)(
    'runs a module: imports, top-level await, console.log to stdout',
    async () => {
      const r = await run(
        `import os from 'node:os'\nawait new Promise((r) => setTimeout(r, 10))\nconsole.log('hi', typeof os.cpus)\nconsole.error('to stderr')`,
      )
      expect(r).toMatchObject({
        stdout: 'hi function\n',
        stderr: 'to stderr\n',
        exitCode: 0,
        timedOut: false,
      })
    },
  )

  it('keeps the server environment out: only PATH, HOME, TMPDIR, LANG and plumbing', async () => {
    const r = await run(`console.log(JSON.stringify(process.env))`)
    expect(r.stdout).not.toContain(SECRET)
    expect(r.stdout).not.toContain('DATABASE_URL')
    const keys = Object.keys(JSON.parse(r.stdout)).sort()
    expect(keys.filter((k) => !['PWD', 'AGENT_NATIVE_BRIDGE_SOCKET', 'TEMP', 'TMP'].includes(k))).toEqual([
      'HOME',
      'LANG',
      'PATH',
      'TMPDIR',
    ])
  })

  it('cannot read /etc/shadow or a file outside its temp dir', async () => {
    const r = await run(`
      import fs from 'node:fs'
      for (const f of ['/etc/shadow', ${JSON.stringify(path.join(outside, 'private.txt'))}, ${JSON.stringify(path.resolve('package.json'))}]) {
        try { console.log('READ', f, fs.readFileSync(f, 'utf8').length) } catch (e) { console.log('denied', e.code) }
      }`)
    expect(r.stdout).not.toContain('READ')
    expect(r.stdout.match(/denied/g)).toHaveLength(3)
  })

  it('can write in its temp dir but not outside it, and the temp dir is removed', async () => {
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith('clockwork-run-')).length
    const target = path.join(outside, 'written.txt')
    const r = await run(`
      import fs from 'node:fs'
      fs.writeFileSync(process.env.TMPDIR + '/ok.txt', 'fine'); console.log('inside', fs.readFileSync(process.env.TMPDIR + '/ok.txt', 'utf8'))
      try { fs.writeFileSync(${JSON.stringify(target)}, 'x'); console.log('WROTE') } catch (e) { console.log('denied', e.code) }`)
    expect(r.stdout).toContain('inside fine')
    expect(r.stdout).toContain('denied')
    expect(existsSync(target)).toBe(false)
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith('clockwork-run-')).length).toBe(before)
  })

  it('cannot spawn a child process or a worker', async () => {
    const r = await run(`
      const cp = await import('node:child_process')
      try { cp.execFileSync('/usr/bin/id'); console.log('SPAWNED') } catch (e) { console.log('spawn', e.code) }
      const { Worker } = await import('node:worker_threads')
      try { new Worker('console.log(1)', { eval: true }); console.log('WORKER') } catch (e) { console.log('worker', e.code) }`)
    expect(r.stdout).toBe('spawn ERR_ACCESS_DENIED\nworker ERR_ACCESS_DENIED\n')
  })

  // How soon past the deadline it comes back is a figure of `npm run bench:sandbox`, not a stopwatch here.
  it('an endless loop is stopped at its timeout and comes back timedOut', async () => {
    const r = await run('while (true) {}', 1_000)
    expect(r).toMatchObject({ timedOut: true, exitCode: null })
  })

  it('caps 10 MB of output with a visible marker', async () => {
    const r = await run(`process.stdout.write('x'.repeat(10 * 1024 * 1024))`)
    expect(r.exitCode).toBe(0)
    expect(r.stdout.length).toBeLessThan(100 * 1024)
    expect(r.stdout).toMatch(/… truncated \(\d+ more bytes not shown\)$/)
  })

  it('reports a thrown error with a non-zero exit code and the line in the agent code', async () => {
    const r = await run(`const a = 1\nthrow new Error('boom')`)
    expect(r.exitCode).not.toBe(0)
    expect(r.stderr).toContain('boom')
    expect(r.stderr).toMatch(/main\.mjs:3/)
  })
})

describe.skipIf(!bwrap)('local adapter under bubblewrap (skipped when bwrap is not usable here)', () => {
  const adapter = new LocalChildProcessAdapter()

  it('reports strong isolation', async () => {
    expect(await adapter.describeIsolation()).toMatchObject({ level: 'strong' })
  })

  it('cannot connect to 127.0.0.1:5432 or anything else on the network', async () => {
    const r = await runCode(
      {
        code: `
          const net = await import('node:net')
          for (const [host, port] of [['127.0.0.1', 5432], ['1.1.1.1', 443]]) {
            await new Promise((done) => {
              const s = net.connect(port, host)
              s.setTimeout(2000, () => { console.log('timeout', host); s.destroy(); done() })
              s.on('connect', () => { console.log('CONNECTED', host); s.destroy(); done() })
              s.on('error', (e) => { console.log('refused', host, e.code); done() })
            })
          }`,
      },
      { adapter, actions: {} },
    )
    expect(r.stdout).not.toContain('CONNECTED')
    expect(r.stdout).toContain('refused 127.0.0.1')
  })

  it('runs as an unprivileged user', async () => {
    const r = await runCode(
      { code: 'console.log(process.getuid(), process.getgid())' },
      { adapter, actions: {} },
    )
    expect(r.stdout).toBe('65534 65534\n')
  })
})

describe('local adapter without bubblewrap', () => {
  it('says its isolation is reduced', async () => {
    const isolation = await new LocalChildProcessAdapter({ bwrap: 'off' }).describeIsolation()
    expect(isolation.level).toBe('reduced')
    expect(isolation.summary).toMatch(/network/)
  })
})

describe('local adapter memory limit', () => {
  it('refuses to allocate past the limit, while Response and Headers still work', async () => {
    const adapter = new LocalChildProcessAdapter({ memoryLimitMb: 256 })
    const r = await runCode(
      {
        code: `
          console.log(await new Response('body').text(), new Headers({ a: 'b' }).get('a'))
          try { const keep = []; for (let i = 0; i < 10; i++) keep.push(Buffer.alloc(64 * 1024 * 1024, 1)); console.log('ALLOCATED') }
          catch (e) { console.log('refused', e.message) }`,
      },
      { adapter, actions: {} },
    )
    expect(r.stdout).toMatch(/^body b\nrefused /)
  })
})

describe.runIf(process.getuid?.() === 0)('local adapter without bubblewrap, server running as root', () => {
  it('drops the code to uid 65534, so it cannot signal the server', async () => {
    const adapter = new LocalChildProcessAdapter({ bwrap: 'off' })
    const r = await runCode(
      {
        code: `console.log(process.getuid()); try { process.kill(process.ppid, 0); console.log('CAN SIGNAL') } catch (e) { console.log(e.code) }
          console.log(await appAction('ping'))`,
      },
      { adapter, actions: { ping: async () => 'pong' } },
    )
    expect(r.stdout).toBe('65534\nEPERM\npong\n')
  })
})
