/**
 * A connected machine's client is its owner's program: with open sign-up, anyone's. What it sends
 * for a command (output streamed while it runs, then the reply) is attacker input. These clients
 * are written by hand: one that streams output without end, one whose reply is enormous, and one
 * whose reply is not the shape the protocol says.
 */
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import WebSocket, { WebSocketServer } from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineFiles } from '#server/environments/providers/providers-machine.ts'
import { INBOUND_RATES, MESSAGE_COST } from '#server/machines/inbound.ts'
import { machineProvider } from '#server/machines/provider.ts'
import type { ApiClient } from '#tests/support/api-client.ts'
import { downloadClient, startClient } from '#tests/support/machine-client.ts'
import { startTestApp, type TestApp } from '#tests/support/test-app.ts'

const E = '/_agent-native/environments'
const R = '/_agent-native/resources'
const MiB = 1024 * 1024
/** What the server keeps of a stream by default (`outputKb` 256), written out. */
const KEPT = 256 * 1024

let app: TestApp
let mallory: ApiClient
let malloryId: string
let token: string
const sockets: WebSocket[] = []

beforeAll(async () => {
  app = await startTestApp()
  mallory = app.client()
  malloryId = (await mallory.signUp('Mallory', 'mallory-output@example.com')).id
  const made = await mallory.post('/_agent-native/machines/tokens', { name: 'box' })
  expect(made.status).toBe(201)
  token = made.body.token
  const def = '---\nprovider: machine:box\n---\nMallory’s box.\n'
  expect((await mallory.put(`${R}/personal/environments/box.md`, def)).status).toBe(201)
})
afterAll(async () => {
  for (const ws of sockets) ws.terminate()
  await app?.close()
})

type Call = { id: number; method: string; params: Record<string, unknown> }

/**
 * A machine client written by hand: registers as the token's machine, then answers each
 * `run_command` with `answer`, which may first send what it likes on the socket.
 */
async function hostileMachine(answer: (call: Call, send: (message: unknown) => void) => Promise<unknown>) {
  const ws = new WebSocket(`${app.baseUrl.replace('http', 'ws')}/_agent-native/machines/connect`, {
    headers: { authorization: `Bearer ${token}` },
  })
  sockets.push(ws)
  ws.on('error', () => {})
  await once(ws, 'open')
  const send = (message: unknown) => ws.send(JSON.stringify(message))
  const registered = new Promise<void>((resolve) =>
    ws.on('message', (data) => {
      const message = JSON.parse(String(data))
      if (message.id === 'register') return resolve()
      // The file watcher lists the folder around a command: it is empty.
      if (message.method === 'list_directory')
        send({ jsonrpc: '2.0', id: message.id, result: { entries: [] } })
      if (message.method !== 'run_command') return
      void answer(message, send).then((result) => send({ jsonrpc: '2.0', id: message.id, result }))
    }),
  )
  const params = { replace: true, os: 'test', version: '1.2.0', dir: '/nowhere', activeRuns: [] }
  send({ jsonrpc: '2.0', id: 'register', method: 'register', params })
  await registered
  return ws
}

const reply = (stdout: unknown) => ({
  exitCode: 0,
  stdout,
  stderr: '',
  durationMs: 1,
  timedOut: false,
  stopped: false,
})

/** Sends `total` bytes of streamed output for the call, a MiB a message, as fast as the socket takes. */
async function flood(ws: WebSocket, call: Call, total: number) {
  const text = 'y\n'.repeat(MiB / 2)
  const message = JSON.stringify({
    jsonrpc: '2.0',
    method: 'output',
    params: { callId: call.params.callId, stream: 'stdout', text },
  })
  for (let sent = 0; sent < total; sent += MiB) {
    ws.send(message)
    // The server reads a client at its own pace (decision 0363): keep a little in flight, not all.
    while (ws.bufferedAmount > 4 * MiB) await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('a machine client that sends enormous or endless output', () => {
  it('streams 32 MiB while a command runs: a listener gets what the server keeps, and a marker', async () => {
    const ws = await hostileMachine(async (call) => {
      await flood(ws, call, 32 * MiB)
      return reply('done\n')
    })
    let streamed = 0
    const texts: string[] = []
    const input = { command: 'yes', timeoutMs: 60_000, runId: 'run_flood' }
    const result = await machineProvider.runCommand(malloryId, 'box', input, (out) => {
      streamed += out.text.length
      if (texts.length < 1000) texts.push(out.text)
    })
    expect(result.stdout).toBe('done\n')
    // Unfixed, every byte reached the listener: 32 MiB for one command, as much as the client sent.
    expect(streamed).toBeLessThanOrEqual(MiB + 200)
    expect(texts.join('')).toMatch(/\[… output past 1048576 bytes not streamed …\]/)
    ws.terminate()
  }, 120_000)

  it('answers with 12 MiB of output: the run keeps 256 KiB of it, the middle cut with a marker', async () => {
    const ws = await hostileMachine(async () => reply('a'.repeat(6 * MiB) + 'b'.repeat(6 * MiB)))
    const res = await mallory.post(`${E}/box/commands`, { command: 'cat big' })
    expect(res.status).toBe(200)
    const { stdout, truncated, bytesOut } = res.body.result
    expect(truncated.stdout).toBe(true)
    expect(bytesOut).toBe(12 * MiB)
    expect(stdout.length).toBeLessThanOrEqual(KEPT + 100)
    expect(stdout).toMatch(/^a+\n\[… \d+ bytes of output omitted …\]\nb+$/)
    ws.terminate()
  }, 60_000)

  it('answers with output that is not text: refused as a bad reply, never read as an array', async () => {
    // `Buffer.from({ length: n })` allocates n bytes and loops n times on the event loop: a reply
    // of 80 bytes that says a length of 40 million held the server's loop for seconds. Called
    // here as the environment tools call it: a test app's routes are a build of their own, whose
    // error class is not this module graph's (production has one graph).
    const ws = await hostileMachine(async () => reply({ length: 40_000_000 }))
    const started = Date.now()
    const ran = machineFiles({ ownerId: malloryId, machineId: 'box' }).exec({ root: '/nowhere' }, 'echo hi', {
      stopKey: 'run_shape',
    })
    const outcome = await ran.then(
      (result) => ({ answered: result.bytesOut }),
      (err: unknown) => ({ refused: err }),
    )
    console.log(`a reply saying { length: 40000000 } was answered in ${Date.now() - started} ms`)
    expect(outcome).toEqual({
      refused: expect.objectContaining({
        status: 502,
        code: 'machine_error',
        message: expect.stringMatching(/bad reply/),
      }),
    })
    ws.terminate()
  }, 120_000)
})

describe('a client that cut a long stream itself, as the shipped one does', () => {
  it('says how much the command printed: the run reports the stream cut and every byte counted', async () => {
    const kept = 'a'.repeat(100) + '\n[… 39999800 bytes of output omitted …]\n' + 'b'.repeat(100)
    const ws = await hostileMachine(async () => ({
      ...reply(kept),
      printed: { stdout: 40_000_000, stderr: 0 },
    }))
    const res = await mallory.post(`${E}/box/commands`, { command: 'yes | head -c 40000000' })
    expect(res.status).toBe(200)
    const { stdout, truncated, bytesOut } = res.body.result
    expect(stdout).toBe(kept)
    // Without `printed`, a stream the client had cut read as whole: truncated false, 241 bytes out.
    expect(truncated).toEqual({ stdout: true, stderr: false })
    expect(bytesOut).toBe(40_000_000)
    ws.terminate()
  }, 60_000)
})

type Received = { bytes: number; message: { method?: string; id?: unknown; params?: any; result?: any } }

/**
 * The real client, against a server written by hand that registers it, asks it to run `params`
 * (a run_command call) and keeps every message it sends: its reply's result and all it received.
 */
async function shippedClientRuns(params: { command: string; maxOutputBytes?: number }) {
  const wss = new WebSocketServer({ port: 0, path: '/_agent-native/machines/connect' })
  await once(wss, 'listening')
  const port = (wss.address() as AddressInfo).port
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-machine-output-'))
  const client = startClient(await downloadClient(app.baseUrl), [
    ...['--server', `http://127.0.0.1:${port}`, '--token', 'cwm_test', '--dir', dir],
  ])
  try {
    const [ws] = (await once(wss, 'connection')) as [WebSocket]
    const received: Received[] = []
    const result = await new Promise<{ stdout: string; stderr: string; printed: unknown }>((resolve) =>
      ws.on('message', (data: Buffer) => {
        const message = JSON.parse(String(data))
        received.push({ bytes: data.length, message })
        if (message.method === 'register') {
          const registered = { ok: true, id: 'box', label: 'box', instance: 'test' }
          ws.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: registered }))
          const call = { callId: 'call_1', runId: 'run_1', timeoutMs: 60_000, ...params }
          ws.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'run_command', params: call }))
        }
        if (message.id === 7) resolve(message.result)
      }),
    )
    const streamed = received
      .filter((r) => r.message.method === 'output')
      .map((r) => r.message.params.text as string)
      .join('')
    return { result, received, streamed }
  } finally {
    await client.kill()
    wss.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('the shipped client, running a command that prints without end', () => {
  it('sends no more of each stream than the server asks it to keep, streamed or in its reply', async () => {
    const { result, received, streamed } = await shippedClientRuns({
      // Twenty megabytes on each stream.
      command: 'yes | head -c 20000000; yes | head -c 20000000 >&2',
      maxOutputBytes: 64 * 1024,
    })
    // Unfixed, the client streamed all forty megabytes and replied with a million characters a stream.
    expect(streamed.length).toBeLessThanOrEqual(2 * (64 * 1024 + 100))
    expect(streamed).toContain('[… output past 65536 bytes not streamed …]')
    for (const text of [result.stdout, result.stderr]) {
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64 * 1024)
      expect(text).toMatch(/^(y\n)+y?\n\[… \d+ bytes of output omitted …\]\n/)
    }
    // Two streams, each streamed and replied: four times the cap, and half again: JSON writes each
    // newline as two characters.
    expect(received.reduce((n, r) => n + r.bytes, 0)).toBeLessThanOrEqual(6 * 64 * 1024 + 4096)
    // What was not sent is still counted, for the run's truncated flags and bytesOut.
    expect(result.printed).toEqual({ stdout: 20_000_000, stderr: 20_000_000 })
  }, 120_000)
})

describe('the shipped client, running a command that prints a line at a time', () => {
  it('streams it all in messages that fit what the server reads of a connection at once', async () => {
    // Thirty thousand lines, each its own write, a fifth of a millisecond apart (a test runner's or
    // a build's log as it comes): the client reads each one alone.
    const lines = `const fs = require('fs'); for (let i = 0; i < 30000; i++) { fs.writeSync(1, i + '\\n'); const t = process.hrtime.bigint(); while (process.hrtime.bigint() - t < 200000n); }`
    const { result, received, streamed } = await shippedClientRuns({
      command: `"${process.execPath}" -e "${lines}"`,
    })
    expect(streamed).toBe(result.stdout)
    expect(result.stdout.endsWith('\n29999\n')).toBe(true)
    // Charged as the server charges them (decision 0427), the client's messages fit one burst of its
    // connection's meter: it is never paced. Before it gathered its output it sent a message for each
    // read of the pipe (some 25,000 here, 54 MB charged), which the server read some two thousand a
    // second while the reply waited behind them.
    const charged = received.reduce((n, r) => n + r.bytes + MESSAGE_COST, 0)
    expect(charged).toBeLessThan(INBOUND_RATES.connection.burst)
  }, 120_000)
})
