/**
 * Who a job's `email:` targets may be: members of the job's organisation, or its creator (who may
 * have left it). One rule, applied when the job is saved (a 400 naming the target) and again when
 * a result is sent (integrations/deliver.ts), since members come and go.
 */
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { member, user } from '../db/schema/auth.ts'
import { inList } from '../db/sql.ts'
import { badRequest } from '../lib/errors.ts'
import type { Notify } from './delivery-fields.ts'

/** The accounts among `addresses` that may be emailed for the org's job (members, or its creator). */
async function emailableAccounts(orgId: string, creatorId: string, addresses: string[], db: Db) {
  if (addresses.length === 0) return []
  const lowered = [...new Set(addresses.map((a) => a.toLowerCase()))]
  return db
    .select({ id: user.id, email: user.email })
    .from(user)
    .leftJoin(member, and(eq(member.userId, user.id), eq(member.organizationId, orgId)))
    .where(
      and(
        sql`lower(${user.email}) in ${inList(lowered)}`,
        sql`(${member.id} is not null or ${user.id} = ${creatorId})`,
      ),
    )
}

/** The addresses (lower-cased) among `addresses` that may be emailed for the org's job. */
export async function emailableAddresses(
  orgId: string,
  creatorId: string,
  addresses: string[],
  db: Db,
): Promise<Set<string>> {
  const rows = await emailableAccounts(orgId, creatorId, addresses, db)
  return new Set(rows.map((r) => r.email.toLowerCase()))
}

/**
 * Whether `address` may be emailed for the org's job, and if so whether it is the creator's own
 * account's (their mail to themselves, paced apart from everyone else's: decision 0536); null
 * when it may not.
 */
export async function emailRecipient(
  orgId: string,
  creatorId: string,
  address: string,
  db: Db,
): Promise<{ own: boolean } | null> {
  const [account] = await emailableAccounts(orgId, creatorId, [address], db)
  return account ? { own: account.id === creatorId } : null
}

/** 400 naming the first `email:` target (as `notify.onSuccess.0`) that may not be emailed. */
export async function checkEmailTargets(
  notify: Notify | undefined,
  job: { orgId: string; createdBy: string },
  db: Db,
): Promise<void> {
  const emails = (['onSuccess', 'onFailure'] as const).flatMap((list) =>
    (notify?.[list] ?? []).flatMap((target, index) =>
      target.startsWith('email:') ? [{ field: `notify.${list}.${index}`, address: target.slice(6) }] : [],
    ),
  )
  if (emails.length === 0) return
  const allowed = await emailableAddresses(
    job.orgId,
    job.createdBy,
    emails.map((e) => e.address),
    db,
  )
  const refused = emails.find((e) => !allowed.has(e.address.toLowerCase()))
  if (refused) {
    throw badRequest(
      `${refused.address} is not a member of this organisation: results are emailed to members only`,
      refused.field,
    )
  }
}
