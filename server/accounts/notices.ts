/**
 * Telling people something: a row in their notifications list (the header's bell counts the unread
 * ones) and, when SMTP is configured, a mail. Alerts about runs (server/integrations/alerts.ts), a
 * model key the provider refused (server/agent/key-refusal.ts) and a job offered to someone
 * (server/jobs/transfer-offers.ts) all end here, so every notice reads and arrives the same way.
 *
 * Mail is paced as invitations are (decisions 0489 and 0525): an address is a person's unverified
 * word, and an organisation's admin can make notices for its members at will, so unpaced this was
 * a relay from the deployment's sender to any address. A notice is mailed only when its person had
 * none in the gap before it, from any organisation: the first of a burst arrives at once, the rest
 * are listed in the app. Each person keeps their newest NOTICES_KEPT per organisation.
 */
import { getDb, type Db } from '../db/client.ts'
import { inTransaction } from '../db/sql.ts'
import { logger } from '../lib/logger.ts'
import { emailEnabled, sendEmail } from '../lib/mail.ts'
import { INVITATION_MAIL_GAP_MINUTES } from './invitation-pace.ts'
import { insertNotices, keepNewestNotices, lockNoticesOf, noticedWithin } from './notice-store.ts'

/** What a notice is about; the notifications page names each in words. */
export type NoticeKind = 'failing' | 'paused' | 'recovered' | 'deadman' | 'key_refused' | 'transfer_offer'

export type Notice = {
  orgId: string
  /** The job it is about (the page links to it); null for a notice about no one job. */
  jobId: string | null
  kind: NoticeKind
  title: string
  body: string
}

export type Recipient = { id: string; email: string }

/** A notice is mailed only after this many quiet minutes for its person: the invitations' gap. */
export const NOTICE_MAIL_GAP_MINUTES = INVITATION_MAIL_GAP_MINUTES

/** Notices kept per person in an organisation, newest first: 50 are listed, the rest count as unread. */
export const NOTICES_KEPT = 200

/** Ends every notice mail, so whoever reads it knows where the next ones are. */
const MAIL_FOOTER =
  `\n\nNotices that follow within ${NOTICE_MAIL_GAP_MINUTES} minutes are listed in Clockwork ` +
  '(the bell) without a mail.'

/**
 * Lists the notice for each recipient, then mails it to those who had no notice in the last
 * NOTICE_MAIL_GAP_MINUTES (a failed mail is logged only).
 */
export async function sendNotice(notice: Notice, recipients: Recipient[], db: Db = getDb()): Promise<void> {
  if (recipients.length === 0) return
  const ids = recipients.map((r) => r.id)
  const quiet = await inTransaction(db, async (tx) => {
    await lockNoticesOf(ids, tx)
    const noticed = await noticedWithin(ids, NOTICE_MAIL_GAP_MINUTES, tx)
    const { orgId, jobId, kind, title, body } = notice
    await insertNotices(
      ids.map((userId) => ({ userId, orgId, jobId, kind, title, body })),
      tx,
    )
    await keepNewestNotices(ids, orgId, NOTICES_KEPT, tx)
    return recipients.filter((r) => !noticed.has(r.id))
  })
  if (!emailEnabled()) return
  await Promise.all(
    quiet.map((r) =>
      sendEmail({
        to: r.email,
        subject: `[Clockwork] ${notice.title}`,
        text: notice.body + MAIL_FOOTER,
      }).catch((err: unknown) =>
        logger.error({ err, jobId: notice.jobId, kind: notice.kind }, 'could not email a notice'),
      ),
    ),
  )
}
