/**
 * The web_fetch tool: reads one public web page as Markdown (or text). The outbound guard refuses
 * private, loopback and link-local targets, after DNS and on every redirect; organisations can
 * switch the tool off (OrgSettings.webFetch).
 */
import { tool } from 'ai'
import { z } from 'zod'
import { fetchReadable, WEB_FETCH_MAX_CHARS } from '../../integrations/web-fetch.ts'
import { OutboundRefused } from '../../lib/outbound.ts'
import type { ToolContext, ToolFailure } from '../tool-context.ts'

const WebFetchInput = z.object({
  url: z.string().describe('The http(s) URL of the page to read'),
  maxChars: z
    .number()
    .int()
    .min(500)
    .max(WEB_FETCH_MAX_CHARS)
    .optional()
    .describe(`Characters of text to return at most (default and maximum ${WEB_FETCH_MAX_CHARS})`),
})

export const WEB_FETCH_DESCRIPTION =
  'Read a public web page: returns its title and its text as Markdown (HTML converted; text and JSON as ' +
  'they are). Private, internal and local addresses are refused. Cite the URL when you use what you read.'

const failure = (status: number, code: string, message: string): ToolFailure => ({
  ok: false,
  error: { status, code, message },
})

export function createWebFetchTool(_ctx: ToolContext) {
  return tool({
    description: WEB_FETCH_DESCRIPTION,
    inputSchema: WebFetchInput,
    execute: async ({ url, maxChars }) => {
      if (!URL.canParse(url)) return failure(400, 'bad_request', `url: ${JSON.stringify(url)} is not a URL`)
      try {
        const page = await fetchReadable(url, { maxChars })
        if (page.status >= 400) return failure(502, 'http_error', `${page.url} answered HTTP ${page.status}`)
        return { ok: true as const, ...page }
      } catch (err) {
        if (err instanceof OutboundRefused) return failure(403, 'refused', `Not fetched: ${err.message}`)
        const message = err instanceof Error ? err.message : String(err)
        return failure(502, 'fetch_failed', `Could not fetch ${url}: ${message}`)
      }
    },
  })
}
