/**
 * A webhook receiver on a local port: it records every request (headers and raw body) and answers
 * with the statuses the test scripts (then 200), so a test can verify signatures and see retries.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ReceivedHook = { path: string; headers: IncomingHttpHeaders; body: string }

export type WebhookReceiver = {
  /** e.g. `http://127.0.0.1:40123`. */
  origin: string
  /** `127.0.0.1:40123`, as INTEGRATIONS_ALLOW_HOSTS takes it. */
  hostPort: string
  received: ReceivedHook[]
  /** Statuses to answer requests to `path` with, in order; after them, 200. */
  answer(path: string, ...statuses: number[]): void
  close(): Promise<void>
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = []
  const scripted = new Map<string, number[]>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = req.url ?? '/'
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      const status = scripted.get(path)?.shift() ?? 200
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    received,
    answer: (path, ...statuses) => scripted.set(path, statuses),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
