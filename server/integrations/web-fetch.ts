/**
 * Reading a web page for the agent: a GET through the SSRF guard with the default policy (public
 * addresses only after DNS, every redirect re-checked; INTEGRATIONS_ALLOW_HOSTS does not apply),
 * a size cap and a timeout; HTML comes back as Markdown (turndown, in a worker thread with a time
 * limit), text and JSON as they are.
 */
import type { LookupAddress } from 'node:dns'
import { guardedFetch, type GuardedResponse } from '../lib/outbound.ts'
import { htmlToMarkdown } from './html-to-markdown.ts'

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

/**
 * Turns a fetched response into readable text (HTML → Markdown, in a worker with a time limit:
 * html-to-markdown.ts), cut at `maxChars`. @throws PageUnreadable for a page past those limits.
 */
export async function toReadable(
  res: Pick<GuardedResponse, 'url' | 'status' | 'headers' | 'body'>,
  maxChars = WEB_FETCH_MAX_CHARS,
): Promise<WebPage> {
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
    const page = await htmlToMarkdown(text)
    title = page.title
    content = page.content
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
