/**
 * Delivery and alerts: the organisation's webhook and Slack endpoints, every delivery attempt of a
 * run's result, the in-app notifications people read, and each job's alert state (what it was
 * already told about, so a failure streak or a dead-man breach is announced once).
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { organization, user } from './auth.ts'
import { jobRuns, jobs } from './app.ts'

const tz = { withTimezone: true } as const

/** Admin-registered places a job's results may be posted to (`webhook:<name>`, `slack:<name>`). */
export const notificationEndpoints = pgTable(
  'notification_endpoints',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['webhook', 'slack'] }).notNull(),
    name: text('name').notNull(),
    /** AES-256-GCM like stored secrets: the URL often carries a token (Slack's always does). */
    url: text('url').notNull(),
    /** The host, shown in lists so admins recognise the endpoint without the secret path. */
    host: text('host').notNull(),
    /** Standard Webhooks signing secret (`whsec_…`), encrypted; null for Slack. */
    signingSecret: text('signing_secret'),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('notification_endpoints_name_uq').on(t.orgId, t.kind, t.name)],
)

/** One try at sending one message to one target (a run's result, or the agent's send_notification). */
export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    runId: text('run_id')
      .notNull()
      .references(() => jobRuns.id, { onDelete: 'cascade' }),
    /** The message this attempt belongs to (the `webhook-id` for webhooks): retries share it. */
    messageId: text('message_id').notNull(),
    target: text('target').notNull(),
    attempt: integer('attempt').notNull(),
    ok: boolean('ok').notNull(),
    /** HTTP status for webhooks and Slack; null for email and for requests that got no answer. */
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    /**
     * Set when the attempt was not made because its address had too many job mails recently
     * (decision 0531): when it may be mailed again. Such an attempt is not retried.
     */
    pacedUntil: timestamp('paced_until', tz),
    at: timestamp('at', tz).notNull().defaultNow(),
  },
  (t) => [index('delivery_attempts_run_idx').on(t.runId, t.id)],
)

/**
 * Every job mail (a run's result or the agent's send_notification to an `email:` target) sent in
 * about the last day, by address and from any organisation: what their pace counts (decisions
 * 0531 and 0536, integrations/job-mail-pace.ts). Not tied to runs, jobs or accounts, so deleting
 * those forgets nothing; the hourly retention deletes rows older than a day.
 */
export const jobMails = pgTable(
  'job_mails',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Lower-cased. */
    address: text('address').notNull(),
    /**
     * From a job whose creator's account has this address (their own mail to themselves): paced
     * apart from everyone else's mail to it (decision 0536).
     */
    own: boolean('own').notNull().default(false),
    sentAt: timestamp('sent_at', tz).notNull().defaultNow(),
  },
  (t) => [
    index('job_mails_address_idx').on(t.address, t.own, t.sentAt),
    index('job_mails_sent_brin').using('brin', t.sentAt),
  ],
)

/**
 * Attempts still to make: a message whose last attempt failed and may be retried waits here for
 * `next_attempt_at`, so a restart during the backoff loses nothing. Any instance sends a due one:
 * it claims the row (`FOR UPDATE SKIP LOCKED`, pushing `next_attempt_at` past the send), so two
 * instances never both send it. The row goes when the message lands or its attempts run out.
 */
export const pendingDeliveries = pgTable(
  'pending_deliveries',
  {
    /** The message's id (`webhook-id`): one message, one target. */
    messageId: text('message_id').primaryKey(),
    runId: text('run_id')
      .notNull()
      .references(() => jobRuns.id, { onDelete: 'cascade' }),
    orgId: text('org_id').notNull(),
    /** The job's creator, who may be emailed even after leaving the organisation. */
    creatorId: text('creator_id').notNull(),
    target: text('target').notNull(),
    /** What is sent: `{ type, subject, text, data }` (integrations/deliver.ts DeliveryMessage). */
    message: jsonb('message').notNull(),
    /** The number of the attempt to make next (the first was made when the run settled). */
    attempt: integer('attempt').notNull(),
    nextAttemptAt: timestamp('next_attempt_at', tz).notNull(),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
  },
  (t) => [index('pending_deliveries_due_idx').on(t.nextAttemptAt)],
)

/** The in-app notification list (header bell): alerts about jobs, per person. */
export const notifications = pgTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    orgId: text('org_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    // No foreign key: an alert outlives a deleted job, like the audit trail.
    jobId: text('job_id'),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    readAt: timestamp('read_at', tz),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt),
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
  ],
)

/** Per job, what has been announced: a failure streak (until it recovers) and the dead-man breach. */
export const jobAlertState = pgTable('job_alert_state', {
  jobId: text('job_id')
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  /** When the current failure streak was announced; cleared (with a recovery message) on success. */
  failingSince: timestamp('failing_since', tz),
  /** The deadline whose breach was announced (last success + window): once per breach. */
  deadmanDeadline: timestamp('deadman_deadline', tz),
})
