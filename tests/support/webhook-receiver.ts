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
  /**
   * Requests to `path` are answered with a redirect whose body never ends: the receiver writes to
   * it for as long as the sender keeps the connection open.
   */
  redirectEndlessly(path: string): void
  /** Requests whose endless answer is still being written (their connection is still open). */
  endlessOpen(): number
  close(): Promise<void>
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = []
  const scripted = new Map<string, number[]>()
  const endless = new Set<string>()
  let endlessOpen = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = req.url ?? '/'
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      if (endless.has(path)) {
        endlessOpen++
        res.on('close', () => endlessOpen--)
        res.writeHead(302, { location: '/elsewhere', 'content-type': 'text/plain' })
        const chunk = Buffer.alloc(16 * 1024, 'x')
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
        }
        res.on('drain', pump)
        return pump()
      }
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
    redirectEndlessly: (path) => endless.add(path),
    endlessOpen: () => endlessOpen,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
