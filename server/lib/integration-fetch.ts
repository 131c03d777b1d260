/**
 * One outbound rule for integrations (MCP servers, webhooks, Slack): every request goes through the
 * SSRF guard of outbound.ts (public addresses only, after DNS, redirects re-checked). An admin may
 * name internal hosts in `INTEGRATIONS_ALLOW_HOSTS` (`host` or `host:port`); endpoints an admin
 * registered for the organisation may then live there. Personal registrations, `web_fetch` and
 * `providerFetch` are never widened by it.
 */
import { env } from '../env.ts'
import {
  checkOutbound,
  guardedFetch,
  OutboundRefused,
  guardedStreamFetch,
  isOutsideAddress,
  type GuardedFetchOptions,
  type GuardedResponse,
} from './outbound.ts'

/** Parses `INTEGRATIONS_ALLOW_HOSTS`: comma or space separated `host` or `host:port` (`[::1]:8080`). */
export function parseInternalHosts(value: string | undefined): { host: string; port?: string }[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => {
      const m = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(entry.toLowerCase())
      if (!m) return { host: entry.toLowerCase() }
      return { host: m[1]!.replace(/^\[|\]$/g, ''), ...(m[2] ? { port: m[2] } : {}) }
    })
}

const defaultPort = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80')

/** Whether `url` names a host (and port, when the entry has one) on the internal allowlist. */
export function isNamedInternalHost(url: URL, list = parseInternalHosts(env().INTEGRATIONS_ALLOW_HOSTS)) {
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '')
  return list.some((e) => e.host === host && (!e.port || e.port === defaultPort(url)))
}

export type IntegrationFetchOptions = Omit<GuardedFetchOptions, 'allowHosts' | 'addressPolicy'> & {
  /**
   * Registered by an admin for the organisation: may reach hosts named in INTEGRATIONS_ALLOW_HOSTS
   * even when they resolve to private addresses. False (a person's own registration): public only.
   */
  adminRegistered: boolean
}

function guardOptions(options: IntegrationFetchOptions): GuardedFetchOptions {
  const { adminRegistered, ...rest } = options
  return {
    ...rest,
    allowHosts: 'any',
    // Checked per hop: a redirect from a named internal host to another internal address is refused.
    addressPolicy: (ip, url) => isOutsideAddress(ip) || (adminRegistered && isNamedInternalHost(url)),
  }
}

/**
 * The fetch for webhooks, Slack and other integrations: buffered, size-capped, timed out, and
 * refused (OutboundRefused) for private, loopback and link-local targets unless named above.
 */
export function integrationFetch(url: string, options: IntegrationFetchOptions): Promise<GuardedResponse> {
  return guardedFetch(url, guardOptions(options))
}

/** {@link integrationFetch} as a streaming WHATWG fetch (for clients such as MCP's that bring their own). */
export function integrationStreamFetch(options: IntegrationFetchOptions) {
  return guardedStreamFetch(guardOptions(options))
}

/** How long a save waits for DNS before giving up on checking (the address is checked again when used). */
const SAVE_CHECK_TIMEOUT_MS = 5_000

/**
 * The outbound rule's refusal for `url`, checked when an integration is saved: the message a
 * request to it would be refused with (`127.0.0.1 is an address that is not public (…)`), or
 * null when it would be allowed. A name that does not resolve (yet), or not within 5 s, is not a
 * refusal: the rule is applied again on every request.
 */
export async function outboundRefusal(
  url: string,
  options: Pick<IntegrationFetchOptions, 'adminRegistered' | 'lookup'>,
): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), SAVE_CHECK_TIMEOUT_MS)
  })
  try {
    const checked = checkOutbound(url, guardOptions({ ...options }))
    checked.catch(() => {})
    await Promise.race([checked, timeout])
    return null
  } catch (err) {
    if (err instanceof OutboundRefused) return err.message
    return null
  } finally {
    clearTimeout(timer)
  }
}
