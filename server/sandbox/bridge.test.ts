/** The bridge over a real Unix socket: token, allowlist, body cap, error mapping, fetch refusals. */
import http from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { startBridge, type Bridge, type BridgeOptions } from './bridge.ts'

let bridge: Bridge | undefined
afterEach(async () => {
  await bridge?.close()
  bridge = undefined
})

function post(b: Bridge, route: string, body: unknown, token = b.token, via: 'socket' | 'tcp' = 'socket') {
  const data = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body))
  const target = via === 'socket' ? { socketPath: b.socketPath } : { host: '127.0.0.1', port: b.port }
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const req = http.request(
      { ...target, path: route, method: 'POST', headers: { authorization: `Bearer ${token}` } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode!, json: JSON.parse(Buffer.concat(chunks).toString()) }),
        )
      },
    )
    req.on('error', reject)
    req.end(data)
  })
}

const start = async (options: Partial<BridgeOptions> = {}) => {
  bridge = await startBridge({ actions: { echo: async (input) => ({ echoed: input }) }, ...options })
  return bridge
}

describe('bridge', () => {
  it('runs an allowlisted action with the right token', async () => {
    const b = await start()
    expect(await post(b, '/app-action', { name: 'echo', input: { a: 1 } })).toEqual({
      status: 200,
      json: { result: { echoed: { a: 1 } } },
    })
  })

  it('answers 401 to a wrong, truncated or missing token', async () => {
    const b = await start()
    for (const token of ['wrong', `${b.token.slice(0, -1)}x`, b.token.slice(1), '']) {
      const r = await post(b, '/app-action', { name: 'echo' }, token)
      expect(r).toMatchObject({ status: 401, json: { error: { code: 'unauthorized' } } })
    }
  })

  it('answers 403 to an action that is not allowlisted, including inherited names', async () => {
    const b = await start()
    for (const name of ['deleteEverything', 'constructor', '__proto__', 'toString']) {
      const r = await post(b, '/app-action', { name })
      expect(r).toMatchObject({ status: 403, json: { error: { code: 'forbidden' } } })
    }
  })

  it('caps the body and rejects malformed JSON', async () => {
    const b = await start({ maxBodyBytes: 1024 })
    expect((await post(b, '/app-action', { name: 'echo', input: 'x'.repeat(2048) })).status).toBe(413)
    expect((await post(b, '/app-action', '{nope')).status).toBe(400)
    expect((await post(b, '/app-action', { input: 1 })).status).toBe(400)
  })

  it("keeps an action's 4xx (status, code, field) and hides anything else behind a 500", async () => {
    const b = await start({
      actions: {
        denied: async () => {
          throw Object.assign(new Error('Not found'), { status: 404, code: 'not_found' })
        },
        broken: async () => {
          throw new Error('password=hunter2 leaked in a stack')
        },
      },
    })
    expect(await post(b, '/app-action', { name: 'denied' })).toMatchObject({
      status: 404,
      json: { error: { code: 'not_found', message: 'Not found' } },
    })
    const broken = await post(b, '/app-action', { name: 'broken' })
    expect(broken.status).toBe(500)
    expect(JSON.stringify(broken.json)).not.toContain('hunter2')
  })

  it('listens on 127.0.0.1 too when asked, with the same token check', async () => {
    const b = await start({ tcp: true })
    expect(b.port).toBeGreaterThan(0)
    expect((await post(b, '/app-action', { name: 'echo' }, b.token, 'tcp')).status).toBe(200)
    expect((await post(b, '/app-action', { name: 'echo' }, 'bad', 'tcp')).status).toBe(401)
  })

  it('refuses providerFetch to private addresses even when the host is allowlisted', async () => {
    const b = await start({
      fetchAllow: ['127.0.0.1', '10.0.0.1', '169.254.169.254', 'localhost', 'internal.example.test'],
      fetchOptions: {
        lookup: (host, cb) =>
          host === 'internal.example.test'
            ? cb(null, [{ address: '127.0.0.1', family: 4 }])
            : cb(new Error('no dns'), []),
      },
    })
    for (const url of [
      'http://127.0.0.1:5432/',
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://internal.example.test/',
    ]) {
      expect(await post(b, '/provider-fetch', { url })).toMatchObject({
        status: 403,
        json: { error: { code: 'fetch_refused' } },
      })
    }
    expect(
      (await post(b, '/provider-fetch', { url: 'http://not-listed.example/' })).json.error.message,
    ).toMatch(/allowlist/)
  })

  it('removes its socket on close', async () => {
    const b = await start()
    const { existsSync } = await import('node:fs')
    expect(existsSync(b.socketPath)).toBe(true)
    await b.close()
    bridge = undefined
    expect(existsSync(b.socketPath)).toBe(false)
  })
})
