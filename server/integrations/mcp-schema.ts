/**
 * MCP server registrations as the API takes and shows them. A header value is literal text, or a
 * reference to a stored secret (`{ "secret": "NAME" }`, or `{ "bearer": "NAME" }` for
 * `Bearer <value>`), resolved when the server is called: the value itself is never stored here.
 */
import { z } from 'zod'
import type { McpHeaderValue } from '../db/schema/mcp.ts'
import { McpServerName } from '../jobs/field-schemas.ts'
import { SecretName } from '../keys/secrets-schema.ts'

export { McpServerName }

export const McpScope = z
  .enum(['personal', 'org'], { error: 'must be "personal" or "org"' })
  .describe("personal: only you use it; org: every member's agent gets it (admins and owners register it)")

// Set by the transport or by HTTP itself; a registration may not override them.
const RESERVED_HEADERS =
  /^(host|content-length|content-type|accept|connection|transfer-encoding|upgrade|te|trailer|keep-alive|proxy-.*|mcp-session-id|mcp-protocol-version|last-event-id)$/i

const HeaderName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/, { error: 'must be an HTTP header name' })
  .refine((name) => !RESERVED_HEADERS.test(name), { error: 'is set by the MCP transport itself' })

const HeaderValue: z.ZodType<McpHeaderValue> = z.union(
  [
    z
      .string()
      .max(4096, { error: 'must be at most 4096 characters' })
      .regex(/^[\t\x20-\x7e\x80-\xff]*$/, { error: 'must not contain control characters' }),
    z.strictObject({ secret: SecretName }),
    z.strictObject({ bearer: SecretName }),
  ],
  { error: 'must be text, { "secret": "NAME" } or { "bearer": "NAME" }' },
)

export const McpHeaders = z
  .record(HeaderName, HeaderValue, { error: 'must be an object of header names to values' })
  .refine((h) => Object.keys(h).length <= 20, { error: 'must have at most 20 headers' })
  .describe(
    'HTTP headers sent with every request, e.g. { "Authorization": { "bearer": "DOCS_TOKEN" } } ' +
      '(a stored secret); plain text values are stored as they are',
  )

export const McpUrl = z
  .string({ error: 'is required' })
  .max(2048, { error: 'must be at most 2048 characters' })
  .refine(
    (value) => {
      if (!URL.canParse(value)) return false
      const url = new URL(value)
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password
    },
    { error: 'must be an http(s) URL without credentials (put tokens in headers)' },
  )
  .describe("The server's streamable HTTP endpoint, e.g. https://mcp.example.com/mcp")

export const McpServerInput = z.strictObject({
  name: McpServerName,
  url: McpUrl,
  headers: McpHeaders.default({}),
  scope: McpScope.default('personal'),
})
export type McpServerInput = z.infer<typeof McpServerInput>

export const McpServerPatch = z.strictObject({
  name: McpServerName.optional(),
  url: McpUrl.optional(),
  headers: McpHeaders.optional(),
})
export type McpServerPatch = z.infer<typeof McpServerPatch>

/** The last connection check (or tool listing) of a server, as this instance saw it. */
export type McpStatus =
  | { state: 'unknown' }
  | { state: 'ok'; tools: number; checkedAt: string }
  | { state: 'error'; message: string; checkedAt: string }

export type McpServerView = {
  id: string
  name: string
  url: string
  scope: 'personal' | 'org'
  /** Shown to whoever may change the server (its owner; admins for org servers); else null. */
  headers: Record<string, McpHeaderValue> | null
  canEdit: boolean
  status: McpStatus
  createdAt: string
  updatedAt: string
}
