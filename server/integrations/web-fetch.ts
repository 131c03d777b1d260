/**
 * Reading a web page for the agent: a GET through the SSRF guard with the default policy (public
 * addresses only after DNS, every redirect re-checked; INTEGRATIONS_ALLOW_HOSTS does not apply),
 * a size cap and a timeout; HTML comes back as Markdown (turndown), text and JSON as they are.
 */
import type { LookupAddress } from 'node:dns'
import TurndownService from 'turndown'
import { guardedFetch, type GuardedResponse } from '../lib/outbound.ts'

/** Bytes read from the wire at most; larger pages are refused rather than cut mid-tag. */
export const WEB_FETCH_MAX_BYTES = 2 * 1024 * 1024
export const WEB_FETCH_TIMEOUT_MS = 15_000
/** Characters of readable text handed to the model at most. */
export const WEB_FETCH_MAX_CHARS = 40_000

export type WebPage = {
  url: string
  status: number
  contentType: string
  title: string | null
  /** Markdown for HTML, the text itself otherwise. */
  content: string
  truncated: boolean
}

export type WebFetchOptions = {
  /** Tests resolve names without the network. */
  lookup?: (hostname: string, cb: (err: Error | null, addresses: LookupAddress[]) => void) => void
  maxChars?: number
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' })
turndown.remove(['script', 'style', 'noscript', 'iframe', 'head', 'form', 'button'])
// Not an HTML element to the typings, but inline SVG is noise in text.
turndown.remove((node) => node.nodeName.toLowerCase() === 'svg')

/** The page's `<title>`, if any. */
function titleOf(html: string): string | null {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)
  return m ? m[1]!.replace(/\s+/g, ' ').trim() || null : null
}

/** Prefers `<main>` or `<article>` when the page has one: the rest is mostly navigation. */
function mainPart(html: string): string {
  const m = /<(main|article)\b[^>]*>[\s\S]*<\/\1>/i.exec(html)
  return m ? m[0] : html
}

/** Fetches `url` and returns it as readable text; OutboundRefused for a target the guard refuses. */
export async function fetchReadable(url: string, options: WebFetchOptions = {}): Promise<WebPage> {
  const res = await guardedFetch(url, {
    allowHosts: 'any',
    maxBytes: WEB_FETCH_MAX_BYTES,
    timeoutMs: WEB_FETCH_TIMEOUT_MS,
    headers: {
      'user-agent': 'Clockwork web_fetch (+https://github.com/)',
      accept: 'text/html,text/plain,text/markdown,application/json;q=0.9,*/*;q=0.1',
    },
    lookup: options.lookup,
  })
  return toReadable(res, options.maxChars)
}

/** Turns a fetched response into readable text (HTML → Markdown), cut at `maxChars`. */
export function toReadable(
  res: Pick<GuardedResponse, 'url' | 'status' | 'headers' | 'body'>,
  maxChars = WEB_FETCH_MAX_CHARS,
): WebPage {
  const contentType = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  const charset = /charset=([\w-]+)/i.exec(res.headers['content-type'] ?? '')?.[1]
  let text: string
  try {
    text = new TextDecoder(charset ?? 'utf-8').decode(res.body)
  } catch {
    text = res.body.toString('utf8')
  }
  let title: string | null = null
  let content: string
  if (
    contentType === 'text/html' ||
    contentType === 'application/xhtml+xml' ||
    (!contentType && /<html/i.test(text))
  ) {
    title = titleOf(text)
    content = turndown
      .turndown(mainPart(text))
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  } else if (
    contentType.startsWith('text/') ||
    /[/+]json$/.test(contentType) ||
    /[/+]xml$/.test(contentType)
  ) {
    content = text
  } else {
    content = `[${contentType || 'unknown'} content, ${res.body.length} bytes, not shown]`
  }
  const max = maxChars
  const truncated = content.length > max
  return {
    url: res.url,
    status: res.status,
    contentType: contentType || 'unknown',
    title,
    content: truncated ? content.slice(0, max) : content,
    truncated,
  }
}
