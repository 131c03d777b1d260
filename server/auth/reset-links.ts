/**
 * Password reset links an organisation's admin makes for a member who cannot get in and cannot be
 * mailed (issue 26 item 8, decision 0254). The link is better-auth's own reset token (the
 * `reset-password:<token>` verification row its reset endpoint reads and consumes), so using it is
 * better-auth's reset: single use, checked for expiry, the password's rules applied. Making one is
 * written to the organisation's member audit in the same transaction.
 */
import { randomBytes } from 'node:crypto'
import { and, desc, eq, like } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { getDb } from '../db/client.ts'
import { revokeTokens } from '../db/revoked-tokens.ts'
import { member, memberAudit, user, verification } from '../db/schema/index.ts'
import { revokeAccessTokensOf } from '../accounts/store.ts'
import { inTransaction } from '../db/sql.ts'
import { badRequest, conflict, forbidden, notFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { logger } from '../lib/logger.ts'
import { recordResetLink } from './admin-set-passwords.ts'
import { appUrl } from './auth.ts'
import { isOrgAdmin, type Caller } from './caller.ts'
import { RESET_PREFIX, resetLinkMisfit } from './reset-link-fit.ts'

/** How long an admin-made link works: a day, time to pass it on by another channel. */
export const RESET_LINK_TTL_MS = 24 * 60 * 60 * 1000

/** The link, and how many of the person's machine tokens it revoked (decision 0351). */
export type ResetLink = { link: string; expiresAt: string; userId: string; machineTokensRevoked: number }

/**
 * Makes a one-time password reset link for `userId`, a member of the caller's organisation.
 * Earlier unused reset links for that person stop working (only the newest one does), and their
 * machine tokens are revoked with it (decision 0351). Callers use
 * `createResetLinkEndingMachines` in the machines service, which also ends their connections.
 *
 * @throws HttpError 403 unless the caller is an admin or owner (an owner's link: owners only), and
 *   when the person's account also opens another organisation the caller does not administer;
 *   409 when they have a pending invitation the caller could not have sent; 404 when `userId` is
 *   not a member of the caller's organisation; 400 for the caller themself.
 */
export async function createResetLink(caller: Caller, userId: string, now = new Date()): Promise<ResetLink> {
  if (!isOrgAdmin(caller)) throw forbidden('Only admins and owners can make password reset links')
  if (userId === caller.userId)
    throw badRequest('userId: change your own password on the profile page instead', 'userId')
  const db = getDb()
  const [target] = await db
    .select({ role: member.role, name: user.name })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(and(eq(member.organizationId, caller.orgId), eq(member.userId, userId)))
  if (!target) throw notFound(`No member ${userId} in this organisation`)
  if (target.role === 'owner' && caller.role !== 'owner')
    throw forbidden('Only owners can make a password reset link for an owner')
  const misfit = await resetLinkMisfit(caller.userId, userId, { exceptOrgId: caller.orgId })
  if (misfit === 'another-organisation') {
    throw forbidden(
      'This person also belongs to another organisation: a reset link would open it too. Only someone ' +
        'who administers every organisation they share with others can make one; they can use ' +
        '"Forgot password" instead.',
    )
  }
  if (misfit === 'invitation') {
    throw conflict(
      'This person has a pending invitation to an organisation you do not administer: whoever holds a ' +
        'reset link could accept it as them. They can use "Forgot password", or you can make the link ' +
        'once the invitation is accepted, declined, cancelled or expired.',
    )
  }

  const token = randomBytes(24).toString('base64url')
  const expiresAt = new Date(now.getTime() + RESET_LINK_TTL_MS)
  let machineTokensRevoked = 0
  await inTransaction(db, async (tx) => {
    await tx
      .delete(verification)
      .where(and(eq(verification.value, userId), like(verification.identifier, `${RESET_PREFIX}%`)))
    const linkId = newId('ver')
    await tx.insert(verification).values({
      id: linkId,
      identifier: `${RESET_PREFIX}${token}`,
      value: userId,
      expiresAt,
      createdAt: now,
      updatedAt: now,
    })
    // Known as the admin's once used: the account then joins only what the admin could invite it to.
    await recordResetLink(tx, { userId, linkId, actorId: caller.userId, expiresAt })
    // Whoever holds the link holds the account, and a connected machine runs that account's
    // commands unconfined on the person's own computer: the link ends its tokens (decision 0351).
    // Their live connections end after (machines/service.ts createResetLinkEndingMachines).
    const revoked = await revokeTokens('machine', userId, tx, { at: now })
    machineTokensRevoked = revoked.length
    // Its access tokens too: one made from a stolen session must not outlive the remedy.
    await revokeAccessTokensOf(userId, null, tx)
    await tx.insert(memberAudit).values({
      id: newId('mau'),
      orgId: caller.orgId,
      actorId: caller.userId,
      subjectUserId: userId,
      action: 'reset_link_created',
      at: now,
    })
  })
  logger.info({ orgId: caller.orgId, actorId: caller.userId, userId }, 'password reset link made by an admin')
  return {
    link: `${appUrl()}/reset-password?token=${token}`,
    expiresAt: expiresAt.toISOString(),
    userId,
    machineTokensRevoked,
  }
}

export type MemberAuditEntry = {
  id: string
  action: 'reset_link_created'
  at: string
  actor: { id: string; name: string } | null
  subject: { id: string; name: string } | null
}

const actor = alias(user, 'actor')
const subject = alias(user, 'subject')

/** The organisation's member audit, newest first (admins and owners only; others get none). */
export async function listMemberAudit(caller: Caller, limit = 20): Promise<MemberAuditEntry[]> {
  if (!isOrgAdmin(caller)) return []
  const rows = await getDb()
    .select({
      id: memberAudit.id,
      action: memberAudit.action,
      at: memberAudit.at,
      actorId: actor.id,
      actorName: actor.name,
      subjectId: subject.id,
      subjectName: subject.name,
    })
    .from(memberAudit)
    .leftJoin(actor, eq(actor.id, memberAudit.actorId))
    .leftJoin(subject, eq(subject.id, memberAudit.subjectUserId))
    .where(eq(memberAudit.orgId, caller.orgId))
    .orderBy(desc(memberAudit.at))
    .limit(limit)
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    at: r.at.toISOString(),
    actor: r.actorId ? { id: r.actorId, name: r.actorName ?? '' } : null,
    subject: r.subjectId ? { id: r.subjectId, name: r.subjectName ?? '' } : null,
  }))
}
