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
import { networkInterfaces } from 'node:os'
import { Readable } from 'node:stream'

/** The request was refused by policy (not a network failure). */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused'
}

type Lookup = (hostname: string, callback: (err: Error | null, addresses: LookupAddress[]) => void) => void

export type GuardedFetchOptions = {
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** Host names allowed (`api.example.com`, `*.example.com`); empty allows none; `any`: every host. */
  allowHosts: string[] | 'any'
  maxBytes?: number
  timeoutMs?: number
  maxRedirects?: number
  /** DNS resolver returning every address; the system's by default. */
  lookup?: Lookup
  /** Which resolved addresses of `url` (each hop's) may be contacted; {@link isOutsideAddress} by default. */
  addressPolicy?: (ip: string, url: URL) => boolean
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
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT): ::ffff:0:a.b.c.d (not ::ffff:0:0, which is IPv4-mapped)
  ['64:ff9b:1::', 48], // NAT64 for local use: the translator may be inside
  ['100::', 64],
  ['2001::', 32], // Teredo: an IPv4 address obfuscated in the last bits
  ['2002::', 16], // 6to4: an IPv4 address in bits 16-47

  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local: deprecated, but some networks still route it inside
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

/**
 * True for a public address that is not one of this host's own. On a host with a public address on
 * an interface, a service bound to 0.0.0.0 behind the firewall (the database, a metrics port)
 * answers on it to a request from the host itself: a member's webhook, MCP server, web page or git
 * URL naming that address reached it as if from inside.
 */
export function isOutsideAddress(ip: string): boolean {
  if (!isPublicAddress(ip)) return false
  const own = ownAddresses()
  const lower = ip.toLowerCase()
  const embedded = embeddedIpv4(lower)
  return !own.has(lower) && !(embedded !== null && own.has(embedded))
}

/** The addresses of this host's own interfaces (a service bound to 0.0.0.0 answers on each). */
function ownAddresses(): Set<string> {
  try {
    return new Set(
      Object.values(networkInterfaces())
        .flat()
        .flatMap((i) => (i ? [i.address.toLowerCase()] : [])),
    )
  } catch {
    return new Set()
  }
}

/**
 * Whether a host allowlist entry (`name`, `*.name`, either with `:port`) leads inside: a
 * `localhost` name, or an address literal in any spelling a resolver accepts (`127.1`,
 * `2130706433`, `0x7f.1`, `[::ffff:a00:1]`) that is private, loopback, link-local, reserved or one
 * of this host's own addresses. Names that are not literals are judged after resolution instead.
 */
export function namesInside(entry: string): boolean {
  const host = entry.trim().toLowerCase().replace(/^\*\./, '').replace(/:\d+$/, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  let canonical: string
  try {
    const bare = host.replace(/^\[|\]$/g, '')
    canonical = new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}/`).hostname.replace(/^\[|\]$/g, '')
  } catch {
    return true // not a host a resolver would accept: nothing to allow
  }
  if (!isIP(canonical)) return false
  return !isOutsideAddress(canonical)
}

/** Throws {@link OutboundRefused} unless `ip` is a public address, not this host's own. */
export function assertPublicAddress(ip: string): void {
  if (!isOutsideAddress(ip))
    throw new OutboundRefused(`Address ${ip} is private, loopback, reserved or this server's own`)
}

// IPv4-mapped (::ffff:a.b.c.d) and well-known NAT64 (64:ff9b::/96) addresses carry an IPv4 inside,
// judged as itself. The other forms that embed one (IPv4-compatible, translated, 6to4, Teredo) are
// deprecated or rare and refused whole above.
function embeddedIpv4(ip: string): string | null {
  const lower = ip.toLowerCase()
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
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
async function resolveChecked(
  url: URL,
  options: Pick<GuardedFetchOptions, 'lookup' | 'addressPolicy'>,
): Promise<LookupAddress> {
  const hostname = url.hostname
  const policy = options.addressPolicy ?? isOutsideAddress
  const bare = hostname.replace(/^\[|\]$/g, '')
  const addresses: LookupAddress[] = isIP(bare)
    ? [{ address: bare, family: isIP(bare) }]
    : await new Promise((resolve, reject) =>
        (options.lookup ?? systemLookup)(bare, (err, list) => (err ? reject(err) : resolve(list))),
      )
  if (addresses.length === 0) throw new OutboundRefused(`${hostname} did not resolve`)
  // Every answer must pass: otherwise a name with one public and one private record could be used.
  // The refusal does not say which address a name resolved to: anyone who signs up could otherwise
  // map the deployment's inside names (`db.internal` resolves to 10.0.3.7) one saved URL at a time.
  for (const a of addresses) {
    if (policy(a.address, url)) continue
    throw new OutboundRefused(
      `${hostname} ${isIP(bare) ? 'is' : 'resolves to'} an address that is not public (private, loopback, reserved or this server's own)`,
    )
  }
  return addresses[0]!
}

/**
 * What {@link guardedFetch} would check before connecting to `rawUrl` (scheme, credentials,
 * allowlist, every resolved address against the policy), without connecting: for checking an
 * address when it is saved, with the same refusal as when it is used.
 *
 * @throws OutboundRefused when the request would be refused; the resolver's error when the name
 *   does not resolve (not a refusal: it may resolve later).
 */
export async function checkOutbound(
  rawUrl: string,
  options: Pick<GuardedFetchOptions, 'allowHosts' | 'lookup' | 'addressPolicy'>,
): Promise<void> {
  const url = new URL(rawUrl)
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundRefused(`Scheme ${url.protocol} is not allowed`)
  if (url.username || url.password) throw new OutboundRefused('Credentials in URLs are not allowed')
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (options.allowHosts !== 'any' && !hostAllowed(host, options.allowHosts))
    throw new OutboundRefused(`Host ${url.hostname} is not in the allowlist`)
  await resolveChecked(url, options)
}

/** A fetch for untrusted URLs: allowlisted hosts, public addresses only, every redirect re-checked. */
export async function guardedFetch(rawUrl: string, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000)
  const { res, url } = await openGuarded(rawUrl, options, deadline)
  return { ...(await readCapped(res, options.maxBytes ?? 5 * 1024 * 1024, deadline)), url: url.toString() }
}

/**
 * {@link guardedFetch} as a WHATWG `fetch` whose body streams (server-sent events, as MCP's
 * streamable HTTP transport reads them). The timeout covers connecting and the response head; the
 * body then runs until it ends or `init.signal` aborts, capped at `maxBytes`.
 */
export function guardedStreamFetch(options: GuardedFetchOptions) {
  return async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    const deadline = Date.now() + (options.timeoutMs ?? 15_000)
    const headers: Record<string, string> = { ...options.headers }
    new Headers(init.headers).forEach((value, key) => (headers[key] = value))
    const body = typeof init.body === 'string' || init.body == null ? (init.body ?? undefined) : undefined
    if (init.body != null && body === undefined) throw new OutboundRefused('Only text bodies are supported')
    const { res, url } = await openGuarded(
      input.toString(),
      { ...options, method: init.method ?? 'GET', headers, body },
      deadline,
      init.signal ?? undefined,
    )
    const maxBytes = options.maxBytes ?? 5 * 1024 * 1024
    let size = 0
    res.on('data', (c: Buffer) => {
      size += c.length
      if (size > maxBytes) res.destroy(new OutboundRefused(`Response larger than ${maxBytes} bytes`))
    })
    const nullBody = res.statusCode === 204 || res.statusCode === 304 || init.method === 'HEAD'
    if (nullBody) res.resume()
    const response = new Response(nullBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
      status: res.statusCode ?? 0,
      statusText: res.statusMessage ?? '',
      headers: toHeaderRecord(res.headers),
    })
    Object.defineProperty(response, 'url', { value: url.toString() })
    return response
  }
}

function toHeaderRecord(raw: http.IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) headers[k] = String(v)
  return headers
}

/**
 * Request headers that still go along once a redirect leaves the first origin: none that can carry
 * a credential. An MCP server's secret headers or a webhook's authorisation are meant for the host
 * they were configured for, not for wherever its redirect points (an open redirect there would
 * hand them to anyone).
 */
const HEADERS_ACROSS_ORIGINS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'content-type',
  'user-agent',
])

function headersAcrossOrigins(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers ?? {}).filter(([name]) => HEADERS_ACROSS_ORIGINS.has(name.toLowerCase())),
  )
}

/** Follows redirects by hand, checking every hop; resolves with the final response, body unread. */
async function openGuarded(
  rawUrl: string,
  options: GuardedFetchOptions,
  deadline: number,
  signal?: AbortSignal,
): Promise<{ res: http.IncomingMessage; url: URL }> {
  let url = new URL(rawUrl)
  let method = (options.method ?? 'GET').toUpperCase()
  let body = options.body
  let headers = options.headers
  const origin = url.origin
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundRefused(`Scheme ${url.protocol} is not allowed`)
    if (url.username || url.password) throw new OutboundRefused('Credentials in URLs are not allowed')
    const host = url.hostname.replace(/^\[|\]$/g, '')
    if (options.allowHosts !== 'any' && !hostAllowed(host, options.allowHosts))
      throw new OutboundRefused(`Host ${url.hostname} is not in the allowlist`)
    const address = await resolveChecked(url, options)
    const res = await openOnce(url, address, { ...options, method, body, headers }, deadline, signal)
    const location = res.headers.location
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
      // A redirect's body is never read: draining it (resume) kept the connection, and the reading,
      // for as long as the server chose to send, which an endless body made for ever.
      res.destroy()
      if (hop >= (options.maxRedirects ?? 5)) throw new OutboundRefused('Too many redirects')
      url = new URL(location, url)
      if (url.origin !== origin) headers = headersAcrossOrigins(headers)
      if (
        res.statusCode === 303 ||
        ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')
      ) {
        method = 'GET'
        body = undefined
      }
      continue
    }
    return { res, url }
  }
}

function openOnce(
  url: URL,
  address: LookupAddress,
  options: GuardedFetchOptions,
  deadline: number,
  signal?: AbortSignal,
): Promise<http.IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: options.method,
      headers: options.headers,
      signal,
      // Connect to the address we checked, whatever DNS says now. TLS still verifies the host name.
      lookup: (_host, opts, cb) => {
        const all = (opts as { all?: boolean }).all
        if (all) (cb as unknown as (e: null, a: LookupAddress[]) => void)(null, [address])
        else cb(null, address.address, address.family)
      },
      timeout: Math.max(1, deadline - Date.now()),
    })
    // Until the response head arrives the deadline applies; the body has its own (readCapped or the caller's signal).
    const timer = setTimeout(
      () => req.destroy(new Error('Request timed out')),
      Math.max(1, deadline - Date.now()),
    )
    req.on('timeout', () => req.destroy(new Error('Request timed out')))
    req.on('response', (res) => {
      clearTimeout(timer)
      req.setTimeout(0)
      resolve(res)
    })
    req.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    req.end(options.body)
  })
}

/** Reads a whole body, failing past `maxBytes` or the deadline. */
function readCapped(
  res: http.IncomingMessage,
  maxBytes: number,
  deadline: number,
): Promise<Omit<GuardedResponse, 'url'>> {
  return new Promise((resolve, reject) => {
    let settled = false
    // The first failure wins; the socket is torn down so nothing more arrives.
    const fail = (err: Error) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      reject(err)
      res.destroy()
    }
    const timer = setTimeout(() => fail(new Error('Request timed out')), Math.max(1, deadline - Date.now()))
    const chunks: Buffer[] = []
    let size = 0
    res.on('data', (c: Buffer) => {
      size += c.length
      if (size > maxBytes) return fail(new OutboundRefused(`Response larger than ${maxBytes} bytes`))
      chunks.push(c)
    })
    res.on('end', () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? '',
        headers: toHeaderRecord(res.headers),
        body: Buffer.concat(chunks),
      })
    })
    res.on('error', fail)
    res.on('aborted', () => fail(new Error('Connection closed early')))
  })
}
