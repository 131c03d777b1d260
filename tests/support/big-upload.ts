/**
 * Uploads a large body with node:http (which reports an early answer while still sending, unlike
 * fetch) and samples the server's resident memory meanwhile, from /proc.
 */
import { readFileSync } from 'node:fs'
import http from 'node:http'

export type UploadResult = { status: number | null; body: string; sentBytes: number; peakRssGrowthMb: number }

export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1])
  return kb * 1024
}

/**
 * POSTs `totalBytes` of `x` to `url` in 1 MiB chunks, with a Content-Length or chunked, and with
 * the given headers. Resolves once the exchange is over (answered and closed, or cut).
 */
export async function bigUpload(
  url: string,
  options: { totalBytes: number; chunked: boolean; headers?: Record<string, string>; serverPid: number },
): Promise<UploadResult> {
  const baseline = rssBytes(options.serverPid)
  let peak = baseline
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(options.serverPid))
    } catch {
      // the server exited (killed for memory): the caller sees the missing answer
    }
  }, 20)
  const chunk = Buffer.alloc(1024 * 1024, 'x')
  let sentBytes = 0
  let status: number | null = null
  let body = ''
  await new Promise<void>((resolve) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.chunked
          ? { 'transfer-encoding': 'chunked' }
          : { 'content-length': String(options.totalBytes) }),
        ...options.headers,
      },
    })
    let finished = false
    const done = () => {
      if (finished) return
      finished = true
      resolve()
    }
    req.on('response', (res) => {
      status = res.statusCode ?? null
      res.setEncoding('utf8')
      res.on('data', (d: string) => (body += d))
      res.on('end', done)
      res.on('error', done)
    })
    req.on('error', () => {
      // The server may cut the upload after answering; keep what arrived.
      setTimeout(done, status === null ? 500 : 100)
    })
    req.on('close', () => setTimeout(done, 200))
    const write = () => {
      while (sentBytes < options.totalBytes && !req.destroyed) {
        sentBytes += chunk.length
        if (!req.write(chunk)) return void req.once('drain', write)
      }
      if (!req.destroyed) req.end()
    }
    write()
  })
  // Let the server settle (a buffered body is parsed after the upload ends).
  await new Promise((r) => setTimeout(r, 300))
  clearInterval(sampler)
  try {
    peak = Math.max(peak, rssBytes(options.serverPid))
  } catch {
    // exited
  }
  return { status, body, sentBytes, peakRssGrowthMb: (peak - baseline) / (1024 * 1024) }
}
