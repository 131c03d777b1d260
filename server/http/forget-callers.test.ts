import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { cachedCaller } from '../access/caller-cache.ts'
import { forgetCallersOnWrites } from './forget-callers.ts'

const session = new Headers({ cookie: 'better-auth.session_token=forget-callers-test' })
/** What a lookup made once the write's answer had begun found: the cached caller or a fresh one. */
let seenAtHandover: string | undefined

const app = express()
app.use(forgetCallersOnWrites())
app.post('/rename', (_req, res) => {
  // The write's own request resolves its caller as it begins (cached: the name before the write).
  void cachedCaller(session, async () => 'before the write')
  // ... writes ... then answers, as a stream. Once its head and first bytes are out, the browser may
  // act on them (React Router decodes an action's answer as it arrives) and ask again before the
  // answer ends; the server must not answer that from the caller cached before the write.
  res.write('renamed')
  void cachedCaller(session, async () => 'after the write').then((caller) => (seenAtHandover = caller))
  setImmediate(() => res.end())
})
const server = createServer(app)

beforeAll(async () => {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

it('forgets the callers cached during a write as its answer begins, not only once it ends', async () => {
  // Before, only `finish` (after the answer ended) forgot them: the lookup found 'before the write'.
  const { port } = server.address() as AddressInfo
  const res = await fetch(`http://127.0.0.1:${port}/rename`, { method: 'POST' })
  expect(await res.text()).toBe('renamed')
  expect(seenAtHandover).toBe('after the write')
})
