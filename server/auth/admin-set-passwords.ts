/**
 * Which passwords an admin set through a reset link (decision 0508). Whoever holds such a link
 * holds the account, and decision 0350 says it never opens another organisation: making the link
 * is refused while the person belongs to, or is invited into, one the admin does not administer.
 * An invitation can also arrive later, so until the person resets the password by mail (which
 * only they can), the account accepts only invitations the link's maker could have sent.
 */
import { and, eq, isNotNull } from 'drizzle-orm'
import { findMembership, mayInvite } from '../accounts/store.ts'
import { getDb, type Db } from '../db/client.ts'
import { adminResetLinks, verification } from '../db/schema/index.ts'
import { inTransaction } from '../db/sql.ts'
import { forbidden } from '../lib/errors.ts'

/** Remembers the admin's new link (in the transaction that writes its reset token). */
export async function recordResetLink(
  tx: Db,
  link: { userId: string; linkId: string; actorId: string; expiresAt: Date },
): Promise<void> {
  const fields = { linkId: link.linkId, linkActorId: link.actorId, linkExpiresAt: link.expiresAt }
  await tx
    .insert(adminResetLinks)
    .values({ userId: link.userId, ...fields })
    .onConflictDoUpdate({ target: adminResetLinks.userId, set: fields })
}

/**
 * Voids the admin's link `linkId` for `userId` (it no longer fits the account, reset-link-fit.ts):
 * its token goes, and the record forgets it, so a later reset by mail is not read as its use.
 */
export async function voidResetLink(userId: string, linkId: string, db: Db = getDb()): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx.delete(verification).where(eq(verification.id, linkId))
    await tx
      .update(adminResetLinks)
      .set({ linkId: null, linkActorId: null, linkExpiresAt: null })
      .where(and(eq(adminResetLinks.userId, userId), eq(adminResetLinks.linkId, linkId)))
  })
}

/**
 * After any password reset of `userId` (better-auth's `onPasswordReset`, which knows the person but
 * not the token): when the admin's live link is the token that was just used up, its maker set the
 * password; otherwise the reset came by mail, from the person, and what an admin set is over. Its
 * sessions end with it, the admin's among them (better-auth's `revokeSessionsOnPasswordReset`, on
 * for every reset: mail.ts).
 */
export async function notePasswordReset(userId: string, now = new Date(), db: Db = getDb()): Promise<void> {
  const [row] = await db.select().from(adminResetLinks).where(eq(adminResetLinks.userId, userId))
  if (!row) return
  if (row.linkId && row.linkExpiresAt && row.linkExpiresAt > now && !(await tokenLives(row.linkId, db))) {
    await db
      .update(adminResetLinks)
      .set({
        passwordSetById: row.linkActorId,
        passwordSetAt: now,
        linkId: null,
        linkActorId: null,
        linkExpiresAt: null,
      })
      .where(eq(adminResetLinks.userId, userId))
    return
  }
  if (!row.passwordSetAt) return
  await db
    .update(adminResetLinks)
    .set({ passwordSetById: null, passwordSetAt: null })
    .where(and(eq(adminResetLinks.userId, userId), isNotNull(adminResetLinks.passwordSetAt)))
}

async function tokenLives(verificationId: string, db: Db): Promise<boolean> {
  const [found] = await db
    .select({ id: verification.id })
    .from(verification)
    .where(eq(verification.id, verificationId))
  return Boolean(found)
}

/**
 * At an answer to an invitation: an account whose password an admin set accepts, or declines, only
 * an invitation that admin could have sent (decision 0508). Declining for the person would take an
 * invitation from them they never saw.
 *
 * @throws HttpError 403 otherwise, saying how the person gets their account back to themselves.
 */
export async function checkNotOpenedByResetLink(
  userId: string,
  invitation: { organizationId: string; role: string | null },
  answer: 'accept' | 'decline' = 'accept',
  db: Db = getDb(),
): Promise<void> {
  const [row] = await db.select().from(adminResetLinks).where(eq(adminResetLinks.userId, userId))
  if (!row?.passwordSetAt) return
  const maker = row.passwordSetById
    ? await findMembership(row.passwordSetById, invitation.organizationId)
    : null
  if (mayInvite(maker?.role ?? null, invitation.role ?? 'member')) return
  const cannot =
    answer === 'accept'
      ? 'cannot join other organisations'
      : 'cannot decline invitations to other organisations'
  throw forbidden(
    `Your password was last set with a reset link an admin made, so this account ${cannot} yet: ` +
      'choose a new password through "Forgot password" (by mail) first.',
  )
}
