/** Personal access tokens: one person's credential for their own MCP client, in one organisation. */
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { organization, user } from './auth.ts'

const tz = { withTimezone: true } as const

export const accessTokens = pgTable(
  'access_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    orgId: text('org_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Any of jobs:read, jobs:write, runs:read, runs:write. */
    scopes: text('scopes').array().notNull(),
    /** SHA-256 of the token (32 random bytes): the token itself is shown once and never stored. */
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', tz),
    revokedAt: timestamp('revoked_at', tz),
    /** The per-token rate limit's fixed window: when it began and how many requests it has seen. */
    windowStartedAt: timestamp('window_started_at', tz),
    windowCount: integer('window_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('access_tokens_hash_uq').on(t.tokenHash),
    index('access_tokens_user_idx').on(t.userId, t.orgId),
  ],
)
