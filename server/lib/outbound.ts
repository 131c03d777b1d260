/**
 * Outbound requests on behalf of untrusted input (agent code, user-supplied URLs) without
 * server-side request forgery. A host must be on an allowlist; its name is resolved once, every
 * address is checked, and the connection goes to the address that was checked (a custom
 * `lookup`), so a DNS answer that changes between check and connect cannot reach the inside.
 * Redirects are followed by hand and each hop is checked again. Responses are size-capped.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { BlockList, isIP } from 'node:net'

/** The request was refused by policy (not a network failure). */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused'
}

type Lookup = (hostname: string, callback: (err: Error | null, addresses: LookupAddress[]) => void) => void

export type GuardedFetchOptions = {
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** Host names allowed (`api.example.com`, `*.example.com`); empty allows none. */
  allowHosts: string[]
  maxBytes?: number
  timeoutMs?: number
  maxRedirects?: number
  /** DNS resolver returning every address; the system's by default. */
  lookup?: Lookup
  /** Which resolved addresses may be contacted; {@link isPublicAddress} by default. */
  addressPolicy?: (ip: string) => boolean
}

export type GuardedResponse = {
  status: number
  statusText: string
  url: string
  headers: Record<string, string>
  body: Buffer
}

const blocked = new BlockList()
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", includes the unspecified 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
] as const)
  blocked.addSubnet(net, bits, 'ipv4')
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, bits, 'ipv6')

/** True for an address on the public internet; false for private, loopback, link-local and the like. */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip)
  if (family === 4) return !blocked.check(ip, 'ipv4')
  if (family !== 6) return false
  const embedded = embeddedIpv4(ip)
  if (embedded) return isPublicAddress(embedded)
  return !blocked.check(ip, 'ipv6')
}

/** Throws {@link OutboundRefused} unless `ip` is a public address. */
export function assertPublicAddress(ip: string): void {
  if (!isPublicAddress(ip)) throw new OutboundRefused(`Address ${ip} is private, loopback or reserved`)
}

// IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible and NAT64 (64:ff9b::/96) addresses carry an IPv4 inside.
function embeddedIpv4(ip: string): string | null {
  const lower = ip.toLowerCase()
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (dotted) return dotted[1]!
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower)
  if (!hex) return null
  const hi = parseInt(hex[1]!, 16)
  const lo = parseInt(hex[2]!, 16)
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
}

/** Whether `host` matches an allowlist entry (exact, or `*.example.com` for subdomains). */
export function hostAllowed(host: string, allow: string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '')
  return allow.some((entry) => {
    const e = entry.trim().toLowerCase()
    if (e.startsWith('*.')) return h.endsWith(e.slice(1)) && h.length > e.length - 1
    return e !== '' && h === e
  })
}

/** Parses `SANDBOX_FETCH_ALLOW`-style lists: comma or space separated. */
export function parseHostList(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter(Boolean)
}

const systemLookup: Lookup = (hostname, cb) => dnsLookup(hostname, { all: true, verbatim: true }, cb)

/** Resolves `hostname` and returns one address every answer of which passed the policy. */
async function resolveChecked(hostname: string, options: GuardedFetchOptions): Promise<LookupAddress> {
  const policy = options.addressPolicy ?? isPublicAddress
  const bare = hostname.replace(/^\[|\]$/g, '')
  const addresses: LookupAddress[] = isIP(bare)
    ? [{ address: bare, family: isIP(bare) }]
    : await new Promise((resolve, reject) =>
        (options.lookup ?? systemLookup)(bare, (err, list) => (err ? reject(err) : resolve(list))),
      )
  if (addresses.length === 0) throw new OutboundRefused(`${hostname} did not resolve`)
  // Every answer must pass: otherwise a name with one public and one private record could be used.
  for (const a of addresses) {
    if (!policy(a.address))
      throw new OutboundRefused(`${hostname} resolves to ${a.address}, which is not public`)
  }
  return addresses[0]!
}

/** A fetch for untrusted URLs: allowlisted hosts, public addresses only, every redirect re-checked. */
export async function guardedFetch(rawUrl: string, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000)
  let url = new URL(rawUrl)
  let method = (options.method ?? 'GET').toUpperCase()
  let body = options.body
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundRefused(`Scheme ${url.protocol} is not allowed`)
    if (url.username || url.password) throw new OutboundRefused('Credentials in URLs are not allowed')
    if (!hostAllowed(url.hostname.replace(/^\[|\]$/g, ''), options.allowHosts))
      throw new OutboundRefused(`Host ${url.hostname} is not in the allowlist`)
    const address = await resolveChecked(url.hostname, options)
    const res = await requestOnce(url, address, { ...options, method, body }, deadline)
    const location = res.headers.location
    if (res.status >= 300 && res.status < 400 && location) {
      if (hop >= (options.maxRedirects ?? 5)) throw new OutboundRefused('Too many redirects')
      url = new URL(location, url)
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET'
        body = undefined
      }
      continue
    }
    return { ...res, url: url.toString() }
  }
}

function requestOnce(
  url: URL,
  address: LookupAddress,
  options: GuardedFetchOptions,
  deadline: number,
): Promise<Omit<GuardedResponse, 'url'>> {
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    let settled = false
    // The first failure wins; the socket is torn down so nothing more arrives.
    const fail = (err: Error) => {
      if (settled) return
      settled = true
      reject(err)
      req.destroy()
    }
    const req = client.request(
      url,
      {
        method: options.method,
        headers: options.headers,
        // Connect to the address we checked, whatever DNS says now. TLS still verifies the host name.
        lookup: (_host, opts, cb) => {
          const all = (opts as { all?: boolean }).all
          if (all) (cb as unknown as (e: null, a: LookupAddress[]) => void)(null, [address])
          else cb(null, address.address, address.family)
        },
        timeout: Math.max(1, deadline - Date.now()),
      },
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (c: Buffer) => {
          size += c.length
          if (size > maxBytes) {
            fail(new OutboundRefused(`Response larger than ${maxBytes} bytes`))
            return
          }
          chunks.push(c)
        })
        res.on('end', () => {
          if (settled) return
          settled = true
          const headers: Record<string, string> = {}
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = String(v)
          const body = Buffer.concat(chunks)
          resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers, body })
        })
        res.on('error', fail)
      },
    )
    const timer = setTimeout(
      () => req.destroy(new Error('Request timed out')),
      Math.max(1, deadline - Date.now()),
    )
    req.on('timeout', () => req.destroy(new Error('Request timed out')))
    req.on('error', reject)
    req.on('close', () => clearTimeout(timer))
    req.end(options.body)
  })
}
