/**
 * Telling people something: a row in their notifications list (the header's bell counts the unread
 * ones) and, when SMTP is configured, a mail. Alerts about runs (server/integrations/alerts.ts) and
 * a job offered to someone (server/jobs/transfer-offers.ts) both end here, so every notice reads
 * and arrives the same way.
 */
import { getDb, type Db } from '../db/client.ts'
import { notifications } from '../db/schema/integrations.ts'
import { newId } from '../lib/ids.ts'
import { logger } from '../lib/logger.ts'
import { emailEnabled, sendEmail } from '../lib/mail.ts'

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

/** Lists the notice for each recipient, then mails it to them (a failed mail is logged only). */
export async function sendNotice(notice: Notice, recipients: Recipient[], db: Db = getDb()): Promise<void> {
  if (recipients.length === 0) return
  await db.insert(notifications).values(
    recipients.map((r) => ({
      id: newId('ntf'),
      userId: r.id,
      orgId: notice.orgId,
      jobId: notice.jobId,
      kind: notice.kind,
      title: notice.title,
      body: notice.body,
    })),
  )
  if (!emailEnabled()) return
  await Promise.all(
    recipients.map((r) =>
      sendEmail({ to: r.email, subject: `[Clockwork] ${notice.title}`, text: notice.body }).catch(
        (err: unknown) =>
          logger.error({ err, jobId: notice.jobId, kind: notice.kind }, 'could not email a notice'),
      ),
    ),
  )
}
