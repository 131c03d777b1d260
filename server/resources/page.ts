/**
 * The workspace list a page at a time (GET /_agent-native/resources): `limit` (default 50, max
 * 200), `cursor` (the previous page's `nextCursor`) and an optional `scope`, with totals. Entries
 * run personal first, then shared, each by path; the cursor holds the last entry's (scope, path),
 * so rows added meanwhile are neither skipped nor repeated. Job files are sized only for the page.
 */
import { z } from 'zod'
import type { Caller } from '../auth/caller.ts'
import { badRequest } from '../lib/errors.ts'
import { decodeCursor, encodeCursor, PageCursor, PageLimit } from '../lib/paging.ts'
import { parseInput } from '../lib/validate.ts'
import { listTreeRows, sizedEntry, type ResourceEntry, type ResourceScope } from './service.ts'

const ResourcePageQuery = z.object({
  prefix: z.string().optional(),
  scope: z
    .preprocess((v) => (v === '' ? undefined : v), z.enum(['personal', 'shared']).optional())
    .describe('Only this half of the workspace'),
  limit: PageLimit,
  cursor: PageCursor,
})

export type ResourcePage = {
  personal: ResourceEntry[]
  shared: ResourceEntry[]
  /** Entries under the prefix in all, per half (both, whatever `scope` says). */
  total: { personal: number; shared: number }
  nextCursor: string | null
}

const SCOPES = ['personal', 'shared'] as const

const order = (scope: ResourceScope) => SCOPES.indexOf(scope)

export async function listResourcePage(caller: Caller, query: unknown = {}): Promise<ResourcePage> {
  const { prefix, scope, limit, cursor } = parseInput(ResourcePageQuery, query ?? {})
  const after = cursor ? decodeCursor(cursor, ['string', 'string']) : null
  const afterScope = after?.[0] as ResourceScope | undefined
  if (afterScope && !SCOPES.includes(afterScope)) {
    throw badRequest('cursor: must be the nextCursor of the previous page, unchanged', 'cursor')
  }
  const tree = await listTreeRows(caller, prefix)
  const rows = SCOPES.filter((s) => !scope || s === scope).flatMap((s) =>
    tree[s].map((row) => ({ scope: s, row })),
  )
  const start = afterScope
    ? rows.findIndex(
        (r) =>
          order(r.scope) > order(afterScope) ||
          (r.scope === afterScope && r.row.entry.path.localeCompare(after![1] as string) > 0),
      )
    : 0
  const page = start < 0 ? [] : rows.slice(start, start + limit)
  const last = page.at(-1)
  const inHalf = (s: ResourceScope) => page.filter((r) => r.scope === s).map((r) => sizedEntry(r.row))
  return {
    personal: inHalf('personal'),
    shared: inHalf('shared'),
    total: { personal: tree.personal.length, shared: tree.shared.length },
    nextCursor:
      start >= 0 && start + limit < rows.length && last
        ? encodeCursor([last.scope, last.row.entry.path])
        : null,
  }
}
