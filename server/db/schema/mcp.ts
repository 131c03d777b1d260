/**
 * Integrations' tables: MCP servers people register for themselves, or admins for the org. Header
 * values are literals or references to stored secrets (resolved at call time, never copied here).
 */
import { sql } from 'drizzle-orm'
import { jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { organization, user } from './auth.ts'

const tz = { withTimezone: true } as const

/** A header's value: literal text, a stored secret, or `Bearer <secret>`. */
export type McpHeaderValue = string | { secret: string } | { bearer: string }

export const mcpServers = pgTable(
  'mcp_servers',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    scope: text('scope', { enum: ['personal', 'org'] }).notNull(),
    /** Who registered it: the owner of a personal server. */
    createdBy: text('created_by')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    headers: jsonb('headers').$type<Record<string, McpHeaderValue>>().notNull().default({}),
    /** Who saved it last: an org server sends org secrets only while this person is an admin. */
    updatedBy: text('updated_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', tz).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', tz).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mcp_servers_org_uq')
      .on(t.orgId, t.name)
      .where(sql`${t.scope} = 'org'`),
    uniqueIndex('mcp_servers_personal_uq')
      .on(t.orgId, t.createdBy, t.name)
      .where(sql`${t.scope} = 'personal'`),
  ],
)
