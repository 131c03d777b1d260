/** runCode end to end on the local adapter: the two globals, the bridge's lifetime, input limits. */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxAdapter, SandboxRunRequest } from './adapter.ts'
import { LocalChildProcessAdapter } from './local-child-process.ts'
import { runCode, RunCodeInput } from './run-code.ts'

const adapter = new LocalChildProcessAdapter()

describe('runCode', () => {
  let server: http.Server
  let port = 0
  beforeAll(async () => {
    server = http.createServer((req, res) =>
      res.writeHead(201, { 'x-from': 'api' }).end(`you sent ${req.method}`),
    )
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  it('appAction reaches the injected actions and returns their result; errors keep their status', async () => {
    const seen: unknown[] = []
    const r = await runCode(
      {
        code: `
          console.log(JSON.stringify(await appAction('list-things', { q: 'a' })))
          try { await appAction('delete-all', {}) } catch (e) { console.log('refused', e.status) }
          try { await appAction('missing-thing', {}) } catch (e) { console.log('missing', e.status, e.message) }`,
      },
      {
        adapter,
        actions: {
          'list-things': async (input) => {
            seen.push(input)
            return { things: [1, 2] }
          },
          'missing-thing': async () => {
            throw Object.assign(new Error('Job not found'), { status: 404, code: 'not_found' })
          },
        },
      },
    )
    expect(r.stdout).toBe('{"things":[1,2]}\nrefused 403\nmissing 404 Job not found\n')
    expect(seen).toEqual([{ q: 'a' }])
  })

  it('a bridge call with a forged token gets 401 from inside the sandbox', async () => {
    const r = await runCode(
      {
        code: `
          const http = await import('node:http')
          const status = await new Promise((resolve) => {
            const req = http.request({ socketPath: process.env.AGENT_NATIVE_BRIDGE_SOCKET, path: '/app-action', method: 'POST',
              headers: { authorization: 'Bearer forged' } }, (res) => resolve(res.statusCode))
            req.on('error', (e) => resolve(e.code))
            req.end(JSON.stringify({ name: 'ping' }))
          })
          console.log(status)`,
      },
      { adapter, actions: { ping: async () => 'pong' } },
    )
    expect(r.stdout).toBe('401\n')
  })

  it('providerFetch goes through the parent: allowed hosts work, private ones are refused', async () => {
    const r = await runCode(
      {
        code: `
          const res = await providerFetch('http://api.example.test:${port}/x', { method: 'POST', body: 'hi' })
          console.log(res.status, res.headers.get('x-from'), await res.text())
          try { await providerFetch('http://169.254.169.254/') } catch (e) { console.log('refused', e.status) }`,
      },
      {
        adapter,
        actions: {},
        fetchAllow: ['api.example.test', '169.254.169.254'],
        // The test server lives on loopback: let exactly that address through, as DNS for the test name.
        fetchOptions: {
          lookup: (_h, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]),
          addressPolicy: (ip) => ip === '127.0.0.1',
        },
      },
    )
    expect(r.stderr).toBe('')
    expect(r.stdout).toBe('201 api you sent POST\nrefused 403\n')
  })

  it('scrubs the env, passes the deadline and closes the bridge after the run', async () => {
    let seen: SandboxRunRequest | undefined
    const spy: SandboxAdapter = {
      id: 'spy',
      run: async (request) => {
        seen = request
        return { stdout: '', stderr: '', exitCode: 0, timedOut: false }
      },
    }
    const r = await runCode({ code: '1' }, { adapter: spy, actions: {} })
    expect(r).toMatchObject({ exitCode: 0, timedOut: false })
    expect(typeof r.durationMs).toBe('number')
    expect(Object.keys(seen!.env).sort()).toEqual(['HOME', 'LANG', 'PATH', 'TMPDIR'])
    expect(seen!.timeoutMs).toBe(30_000)
    const { existsSync } = await import('node:fs')
    expect(existsSync(seen!.bridgeSocketPath!)).toBe(false)
  })

  it('validates input: code required, timeout at most 120 s', () => {
    expect(RunCodeInput.safeParse({ code: '' }).success).toBe(false)
    expect(RunCodeInput.safeParse({ code: 'x', timeoutMs: 120_001 }).success).toBe(false)
    expect(RunCodeInput.safeParse({ code: 'x', timeoutMs: 120_000 }).success).toBe(true)
  })
})
