import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/**
 * The lowest port the kernel hands out as a connection's local port (Linux's
 * ip_local_port_range; 32768 where it cannot be read).
 */
function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)
    const start = Number(low)
    return Number.isInteger(start) && start > 11_000 ? start : 32_768
  } catch {
    return 32_768
  }
}

const FIRST = 10_000
const END = ephemeralStart()

/**
 * Ports `fetch` refuses to connect to (the Fetch standard's "bad ports"; undici says "bad port"):
 * of those, only 10080 lies in the range above. A test app given it failed its first health check.
 */
const FETCH_BLOCKED = new Set([10_080])
export const fetchMayUse = (port: number) => !FETCH_BLOCKED.has(port)

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now, for a server the caller starts next.
 *
 * Chosen below the ephemeral range on purpose: a port the kernel picked with `listen(0)` comes
 * from the same range as the local ports of outgoing connections, so with several test files
 * running at once another process's connection (to Postgres, say) could take it before the
 * server listened (EADDRINUSE). Ports below that range are only ever taken by a listen.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = FIRST + Math.floor(Math.random() * (END - FIRST))
    if (fetchMayUse(port) && (await tryListen(port))) return port
  }
  throw new Error(`no free port between ${FIRST} and ${END} after 200 tries`)
}
