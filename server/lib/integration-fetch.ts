/**
 * One outbound rule for integrations (MCP servers, webhooks, Slack): every request goes through the
 * SSRF guard of outbound.ts (public addresses only, after DNS, redirects re-checked). An admin may
 * name internal hosts in `INTEGRATIONS_ALLOW_HOSTS` (`host` or `host:port`); endpoints an admin
 * registered for the organisation may then live there. Personal registrations, `web_fetch` and
 * `providerFetch` are never widened by it.
 */
import { env } from '../env.ts'
import {
  guardedFetch,
  guardedStreamFetch,
  isPublicAddress,
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
    addressPolicy: (ip, url) => isPublicAddress(ip) || (adminRegistered && isNamedInternalHost(url)),
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
