/** One route under load (autocannon), and the size of one response as a browser would receive it. */
import http from 'node:http'
import autocannon, { type Result } from 'autocannon'

/** `status`: what every answer must be (default: any 2xx); the floor row expects its 404. */
export type Route = { name: string; path: string; cookie?: string; status?: number }
export type LoadResult = {
  rps: number
  p50: number
  p99: number
  max: number
  total: number
  failures: number
}

/** What browsers send; the server may compress for it. */
const ACCEPT_ENCODING = 'gzip, deflate, br'

function headers(route: Route): Record<string, string> {
  return { 'accept-encoding': ACCEPT_ENCODING, ...(route.cookie ? { cookie: route.cookie } : {}) }
}

export async function load(baseUrl: string, route: Route, connections: number, seconds: number) {
  const result = await autocannon({
    url: baseUrl + route.path,
    connections,
    duration: seconds,
    headers: headers(route),
  })
  return {
    rps: result.requests.total / (result.duration || seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    total: result.requests.total,
    failures: unexpected(route, result) + result.errors + result.timeouts,
  } satisfies LoadResult
}

/** Answers whose status is not the one the route expects. */
function unexpected(route: Route, result: Result): number {
  if (route.status === undefined) return result.non2xx
  return result.requests.total - (result.statusCodeStats[String(route.status)]?.count ?? 0)
}

/** Bytes on the wire for one answer's body (compressed if the server compresses), of the route's status. */
export function responseBytes(baseUrl: string, route: Route): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(baseUrl + route.path, { headers: headers(route) }, (res) => {
        let bytes = 0
        res.on('data', (chunk: Buffer) => (bytes += chunk.length))
        res.on('end', () => {
          if (res.statusCode !== (route.status ?? 200))
            reject(new Error(`${route.name}: status ${res.statusCode}`))
          else resolve(bytes)
        })
      })
      .on('error', reject)
  })
}
