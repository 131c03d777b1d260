/**
 * Where and how environment sources and git skills are cloned (clone.ts runs the clone, under the
 * environment's bounds). git runs as the sandbox uid (the clone is owned by it, like everything
 * commands write), with no system or global configuration, hooks off, no terminal prompt and only https and file transports. A token from a named secret is handed to
 * git as an `http.extraHeader` through GIT_CONFIG_* variables: git keeps it in memory and never
 * writes it to `.git/config`, and it never appears in a URL. file:// URLs are only accepted under
 * ENVIRONMENT_LOCAL_ROOT and only for org admins (the same rule as `local` sources); an https host must resolve
 * to public addresses only, and git connects to the addresses that were checked (pinned through
 * curl's resolve list) and follows no redirect.
 */
import { lookup } from 'node:dns/promises'
import { realpath } from 'node:fs/promises'
import { isIP } from 'node:net'
import { fileURLToPath } from 'node:url'
import { badRequest, forbidden } from '../../lib/errors.ts'
import { assertPublicAddress, OutboundRefused } from '../../lib/outbound.ts'
import { isInside } from '../files/paths.ts'
import { trimTrailing } from '../../lib/text.ts'

export type CloneRequest = {
  url: string
  /** Target folder (must not exist, or be empty). */
  dir: string
  /** Where git runs (an existing folder owned by the sandbox uid). */
  cwd: string
  ref?: string
  depth: number | 'full'
  token?: string
  /** ENVIRONMENT_LOCAL_ROOT, when set. */
  localRoot?: string
  /** Whether the person the clone is for is an org admin: file:// URLs are for admins only. */
  isAdmin?: boolean
  field: string
}

/** "owner/name" means GitHub; anything else is a URL already validated by the definition schema. */
export const repoUrl = (repo: string) =>
  /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repo) ? `https://github.com/${repo}` : repo

/** The folder name of a repository: its last path segment without `.git`. */
export const repoFolder = (repo: string) =>
  trimTrailing(repoUrl(repo), '/')
    .split('/')
    .pop()!
    .replace(/\.git$/, '')
    .replace(/[^A-Za-z0-9_.-]/g, '-') || 'repo'

/**
 * Where git may connect for an https URL: the host's addresses as checked, handed to curl as its
 * resolve list (`http.curloptResolve`), so git connects to exactly these and DNS is not asked
 * again (a name that rebinds to an inside address between the check and the connect).
 */
export type GitPin = { host: string; port: number; addresses: string[] }

/**
 * Checks where a URL may lead: the pin for an https host name, nothing to pin for file:// or an
 * address literal. @throws HttpError 400/403 naming `field`.
 */
export async function checkGitUrl(
  url: string,
  localRoot: string | undefined,
  field: string,
  isAdmin = false,
): Promise<GitPin | undefined> {
  const parsed = new URL(url)
  if (parsed.protocol === 'file:') {
    // ENVIRONMENT_LOCAL_ROOT is the admins' folder: a member's file:// URL would copy it out.
    if (!isAdmin) throw forbidden(`${field}: file:// sources are for organisation admins only`)
    if (!localRoot) throw forbidden(`${field}: file:// sources need ENVIRONMENT_LOCAL_ROOT on this server`)
    const path = await realpath(fileURLToPath(parsed)).catch(() => {
      throw badRequest(`${field}: ${url} does not exist`, field)
    })
    if (!isInside(await realpath(localRoot), path))
      throw forbidden(`${field}: ${url} is outside ENVIRONMENT_LOCAL_ROOT`)
    return undefined
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '')
  try {
    const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address)
    for (const address of addresses) assertPublicAddress(address)
    if (isIP(host)) return undefined
    return { host, port: Number(parsed.port) || 443, addresses }
  } catch (err) {
    if (err instanceof OutboundRefused) throw forbidden(`${field}: ${parsed.hostname} is not a public host`)
    throw badRequest(`${field}: ${parsed.hostname} cannot be resolved`, field)
  }
}

/** curl's resolve entry for a pin: `host:port:addr[,addr…]`, IPv6 addresses in brackets. */
export const curlResolveEntry = (pin: GitPin) =>
  `${pin.host}:${pin.port}:${pin.addresses.map((a) => (isIP(a) === 6 ? `[${a}]` : a)).join(',')}`

/**
 * The configuration git runs with (as GIT_CONFIG_* variables): hooks off, only https and file
 * transports, no credential helper, no redirects (a redirect leads to a host nobody checked), the
 * pin, and the token as a header.
 */
export function gitConfig(pin: GitPin | undefined, token: string | undefined): [string, string][] {
  const config: [string, string][] = [
    ['core.hooksPath', '/dev/null'],
    ['protocol.allow', 'never'],
    ['protocol.https.allow', 'always'],
    ['protocol.file.allow', 'always'],
    ['credential.helper', ''],
    ['http.followRedirects', 'false'],
  ]
  if (pin) config.push(['http.curloptResolve', curlResolveEntry(pin)])
  if (token) {
    const basic = Buffer.from(`x-access-token:${token}`).toString('base64')
    config.push(['http.extraHeader', `Authorization: Basic ${basic}`])
  }
  return config
}

/** The `git clone` argument list: shallow and single-branch unless `depth: full`. */
export function cloneArgs(req: Pick<CloneRequest, 'url' | 'dir' | 'ref' | 'depth'>): string[] {
  const args = ['git', 'clone', '--quiet', '--no-tags']
  if (req.depth !== 'full') args.push(`--depth=${req.depth}`, '--single-branch')
  if (req.ref) args.push('--branch', req.ref)
  args.push('--', req.url, req.dir)
  return args
}
