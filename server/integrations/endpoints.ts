/**
 * Webhook and Slack endpoints an organisation's admins register (`webhook:<name>`,
 * `slack:<name>` in a job's `notify`). URLs are stored encrypted like secrets (a Slack URL is
 * its own credential); a webhook's Standard Webhooks signing secret is shown once, on creation.
 */
import { randomBytes } from 'node:crypto'
import { and, asc, count, eq } from 'drizzle-orm'
import { z } from 'zod'
import { isOrgAdmin, type Caller } from '../access/caller.ts'
import { getDb, type Db } from '../db/client.ts'
import { checkRoom } from '../db/lock.ts'
import { notificationEndpoints } from '../db/schema/integrations.ts'
import { decryptSecret, encryptSecret } from '../keys/crypto.ts'
import { badRequest, conflict, forbidden, notFound, quotaExceeded } from '../lib/errors.ts'
import { outboundRefusal } from '../lib/integration-fetch.ts'
import { newId } from '../lib/ids.ts'
import { logger } from '../lib/logger.ts'
import { parseInput } from '../lib/validate.ts'

export type EndpointKind = 'webhook' | 'slack'

/**
 * Endpoints one organisation may register, webhooks and Slack together (decision 0456): the
 * delivery settings page and every job form read them all, and a team posts to a few.
 */
export const MAX_ENDPOINTS_PER_ORG = 100

export const EndpointInput = z.strictObject({
  kind: z.enum(['webhook', 'slack'], { error: 'must be "webhook" or "slack"' }),
  name: z.string({ error: 'must be a string' }).regex(/^[a-z0-9][a-z0-9-]{0,62}$/, {
    error: 'must be a slug like "ops-feed" (lowercase letters, digits, dashes)',
  }),
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .max(2000, { error: 'must be at most 2000 characters' })
    // zod runs a refinement even after z.url() refused the text, where `new URL` threw (a 500):
    // text that is no URL is z.url()'s to name.
    .refine((u) => !URL.parse(u)?.username && !URL.parse(u)?.password, {
      error: 'must not carry a user name or password',
    }),
})

/** An endpoint as every member sees it (names are what jobs refer to); never its URL path. */
export type EndpointSummary = {
  id: string
  kind: EndpointKind
  name: string
  host: string
  createdAt: string
}

const summary = (row: typeof notificationEndpoints.$inferSelect): EndpointSummary => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  host: row.host,
  createdAt: row.createdAt.toISOString(),
})

export async function listEndpoints(caller: Caller, db: Db = getDb()): Promise<EndpointSummary[]> {
  const rows = await db
    .select()
    .from(notificationEndpoints)
    .where(eq(notificationEndpoints.orgId, caller.orgId))
    .orderBy(asc(notificationEndpoints.kind), asc(notificationEndpoints.name))
  return rows.map(summary)
}

const assertAdmin = (caller: Caller) => {
  if (!isOrgAdmin(caller))
    throw forbidden("Only the organisation's admins and owners may change its endpoints")
}

/**
 * Checks that one more endpoint fits in the organisation. Creates in one organisation take turns
 * until `tx` ends, since two at once would otherwise both count the same room and both take it.
 *
 * @throws HttpError 403 `quota_exceeded`
 */
async function checkEndpointQuota(orgId: string, tx: Db): Promise<void> {
  const stored = eq(notificationEndpoints.orgId, orgId)
  await checkRoom(
    tx,
    `endpoints:${orgId}`,
    MAX_ENDPOINTS_PER_ORG,
    async () => (await tx.select({ n: count() }).from(notificationEndpoints).where(stored))[0]!.n,
    () =>
      quotaExceeded(
        `This organisation already has ${MAX_ENDPOINTS_PER_ORG} endpoints, its limit (webhooks and Slack ` +
          'together): delete one first',
      ),
  )
}

/**
 * Registers an endpoint (403 `quota_exceeded` past MAX_ENDPOINTS_PER_ORG); a webhook's signing
 * secret is in the answer, and never again.
 */
export async function createEndpoint(
  caller: Caller,
  body: unknown,
  db: Db = getDb(),
): Promise<EndpointSummary & { signingSecret?: string }> {
  assertAdmin(caller)
  const input = parseInput(EndpointInput, body)
  // Delivery would refuse it on every run: refuse it now, with the same reason.
  const refusal = await outboundRefusal(input.url, { adminRegistered: true })
  if (refusal)
    throw badRequest(`url: ${input.kind} ${input.name} refused by the outbound rule: ${refusal}`, 'url')
  const signingSecret = input.kind === 'webhook' ? `whsec_${randomBytes(32).toString('base64')}` : undefined
  const row = {
    id: newId('end'),
    orgId: caller.orgId,
    kind: input.kind,
    name: input.name,
    url: encryptSecret(input.url),
    host: new URL(input.url).host,
    signingSecret: signingSecret ? encryptSecret(signingSecret) : null,
    createdBy: caller.userId,
    createdAt: new Date(),
  }
  const inserted = await db.transaction(async (tx) => {
    await checkEndpointQuota(caller.orgId, tx)
    return tx.insert(notificationEndpoints).values(row).onConflictDoNothing().returning()
  })
  if (inserted.length === 0)
    throw conflict(`A ${input.kind} endpoint named ${input.name} already exists`, 'name')
  logger.info({ orgId: caller.orgId, kind: input.kind, name: input.name }, 'endpoint registered')
  return { ...summary(inserted[0]!), ...(signingSecret ? { signingSecret } : {}) }
}

export async function deleteEndpoint(caller: Caller, id: string, db: Db = getDb()): Promise<void> {
  assertAdmin(caller)
  const deleted = await db
    .delete(notificationEndpoints)
    .where(and(eq(notificationEndpoints.id, id), eq(notificationEndpoints.orgId, caller.orgId)))
    .returning({ id: notificationEndpoints.id })
  if (deleted.length === 0) throw notFound(`No endpoint ${id}`)
}

/** What delivery needs to post to `kind:name`, decrypted; null when the org has none by that name. */
export async function loadEndpoint(
  orgId: string,
  kind: EndpointKind,
  name: string,
  db: Db = getDb(),
): Promise<{ url: string; signingSecret: string | null } | null> {
  const [row] = await db
    .select()
    .from(notificationEndpoints)
    .where(
      and(
        eq(notificationEndpoints.orgId, orgId),
        eq(notificationEndpoints.kind, kind),
        eq(notificationEndpoints.name, name),
      ),
    )
  if (!row) return null
  return {
    url: decryptSecret(row.url),
    signingSecret: row.signingSecret ? decryptSecret(row.signingSecret) : null,
  }
}
