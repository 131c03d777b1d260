/**
 * How fast an organisation may invite (decision 0489). An invitation is a row and, with SMTP_URL,
 * a mail from this deployment to any address the inviter types; anyone who signs up owns an
 * organisation, and inviting the same address again re-sends the mail. Unpaced, that is a relay:
 * one admin mailing one person without end, or cancelling and inviting to grow the table.
 */
import { and, eq, gt, sql } from 'drizzle-orm'
import { getDb } from '../db/client.ts'
import { invitation } from '../db/schema/index.ts'
import { env } from '../env.ts'
import { HttpError } from '../lib/errors.ts'
import { emailEnabled } from '../lib/mail.ts'

/** How long an invitation stays open; a re-send moves its end this far from the moment it was sent. */
export const INVITATION_EXPIRES_IN_SECONDS = 7 * 24 * 3600

/** One invitation mail to an address in this long, from the whole deployment. */
export const INVITATION_MAIL_GAP_MINUTES = 10

/**
 * Whether the organisation may invite `email` now (a new invitation, or a re-send of its open one).
 * @throws HttpError 429 `invitation_recently_sent` when invitations are mailed and `email` was mailed
 *   one less than ten minutes ago (by any organisation), and 429 `too_many_invitations` for a new
 *   invitation past `ORG_MAX_INVITATIONS_PER_DAY` made in the organisation in a day, cancelled ones
 *   included.
 */
export async function checkInvitationPace(orgId: string, email: string): Promise<void> {
  const db = getDb()
  // better-auth stores addresses in lower case.
  const address = email.trim().toLowerCase()
  // A re-send moves the invitation's end to a week from then: that is when it was last mailed.
  const lastSent = sql`greatest(${invitation.createdAt}, ${invitation.expiresAt} - make_interval(secs => ${INVITATION_EXPIRES_IN_SECONDS}))`
  const [toAddress] = await db
    .select({
      sentLately: sql<boolean>`coalesce(bool_or(${lastSent} > now() - make_interval(mins => ${INVITATION_MAIL_GAP_MINUTES})), false)`,
      pendingHere: sql<boolean>`coalesce(bool_or(${invitation.organizationId} = ${orgId} and ${invitation.status} = 'pending'), false)`,
    })
    .from(invitation)
    .where(eq(invitation.email, address))
  if (emailEnabled() && toAddress?.sentLately) {
    throw new HttpError(
      429,
      'invitation_recently_sent',
      `An invitation was mailed to ${address} less than ${INVITATION_MAIL_GAP_MINUTES} minutes ago. Share its link from the list, or send it again later.`,
      'email',
    )
  }
  // A re-send makes no row: only a new invitation counts against the day.
  if (toAddress?.pendingHere) return
  const limit = env().ORG_MAX_INVITATIONS_PER_DAY
  const [today] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(invitation)
    .where(and(eq(invitation.organizationId, orgId), gt(invitation.createdAt, sql`now() - interval '1 day'`)))
  if ((today?.n ?? 0) >= limit) {
    throw new HttpError(
      429,
      'too_many_invitations',
      `This organisation has made ${limit} invitations today, the most it may. Try again tomorrow.`,
      'email',
    )
  }
}
