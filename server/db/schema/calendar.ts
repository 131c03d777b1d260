/** Calendar feed tokens: one person's iCalendar subscription to the jobs they see in one organisation. */
import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { organization, user } from './auth.ts'

const tz = { withTimezone: true } as const

export const calendarTokens = pgTable(
  'calendar_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    orgId: text('org_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token (32 random bytes): the token itself is shown once and never stored. */
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', tz),
  },
  (t) => [
    uniqueIndex('calendar_tokens_hash_uq').on(t.tokenHash),
    index('calendar_tokens_user_idx').on(t.userId, t.orgId),
  ],
)
