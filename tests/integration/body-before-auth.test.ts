/**
 * Bodies are read before any session or token is checked (decision 0032: one limit in front of
 * every route). Each request is capped, but nothing capped how many a client keeps arriving at
 * once: an anonymous client opened uploads to a harness run's route (32 MiB each, a token nobody
 * holds) or to a page (3 MiB each), sent all but the last byte and waited, and the server held
 * every one of them. A handful of harness uploads fills a 512 MiB machine. Runs against the
 * production server (needs `npm run build`).
 */
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { rssBytes } from '#tests/support/big-upload.ts'
import { sharedPostgres, spawnServer, type SpawnedServer } from '#tests/support/spawn-server.ts'

const MiB = 1024 * 1024
let server: SpawnedServer

beforeAll(async () => {
  server = await spawnServer({ SCHEDULER_ENABLED: 'false' }, sharedPostgres(inject('postgresUrl')))
}, 90_000)
afterAll(() => server?.stop())

type Held = {
  /** The answer's status, once one arrived. */
  status: () => number | null
  /** All but the last byte of the declared body has been handed to the kernel. */
  sent: () => boolean
  destroy: () => void
}

/** Declares `bytes` of body, sends all but the last one, and keeps the request open. */
function holdUpload(path: string, bytes: number): Held {
  let status: number | null = null
  let sent = false
  const req = http.request(server.baseUrl + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'content-length': String(bytes),
      origin: server.baseUrl,
    },
  })
  req.on('response', (res) => {
    status = res.statusCode ?? null
    res.resume()
  })
  req.on('error', () => {}) // the server may cut a refused upload
  const chunk = Buffer.alloc(MiB, 'x')
  let left = bytes - 1
  const write = () => {
    while (left > 0 && !req.destroyed) {
      const part = left >= chunk.length ? chunk : chunk.subarray(0, left)
      left -= part.length
      // The last part's callback: everything is in the kernel's hands (the server's to read).
      const last = left === 0 ? () => (sent = true) : undefined
      if (!req.write(part, last)) return void req.once('drain', write)
    }
  }
  write()
  return { status: () => status, sent: () => sent, destroy: () => req.destroy() }
}

describe('an anonymous client holding uploads open', () => {
  it('is refused a harness upload for a token no live run holds before the body is read', async () => {
    const held = holdUpload('/_agent-native/harness/runs/hrn_nobody/v1/messages', 32 * MiB - 1)
    try {
      // Unfixed, the server reads 32 MiB first and answers only when the body ends: never here.
      await expect.poll(held.status, { timeout: 10_000, interval: 25 }).toBe(401)
    } finally {
      held.destroy()
    }
  }, 30_000)

  it('cannot make the server hold more than its in-flight budget of page bodies', async () => {
    const baseline = rssBytes(server.pid)
    // 60 page forms of 3 MiB: 180 MiB if all were held; the budget for one address is far less.
    const uploads = Array.from({ length: 60 }, () => holdUpload('/jobs/new', 3 * MiB))
    try {
      let peak = baseline
      await expect
        .poll(
          () => {
            peak = Math.max(peak, rssBytes(server.pid))
            return uploads.filter((u) => u.sent() || u.status() !== null).length
          },
          { timeout: 60_000, interval: 25 },
        )
        .toBe(uploads.length)
      // The server reads what it accepted on its next turns: sample it while it answers.
      for (let i = 0; i < 20; i++) {
        expect((await fetch(`${server.baseUrl}/_agent-native/health`)).status).toBe(200)
        peak = Math.max(peak, rssBytes(server.pid))
      }
      // Refused uploads are answered while they are still arriving, not after their last byte.
      const refused = uploads.filter((u) => u.status() === 429).length
      console.log(
        `held uploads: ${refused} of ${uploads.length} refused, RSS +${(peak - baseline) / MiB} MiB`,
      )
      expect(refused).toBeGreaterThan(30)
      expect((peak - baseline) / MiB).toBeLessThan(100)
    } finally {
      for (const u of uploads) u.destroy()
    }
  }, 90_000)
})
