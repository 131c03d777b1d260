/** SQL for `mcp_servers`: a person's own servers and their organisation's. */
import { and, count, eq, or, sql } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { mcpServers } from '../db/schema/mcp.ts'

export type McpServerRow = typeof mcpServers.$inferSelect

const visible = (orgId: string, userId: string) =>
  and(
    eq(mcpServers.orgId, orgId),
    or(eq(mcpServers.scope, 'org'), and(eq(mcpServers.scope, 'personal'), eq(mcpServers.createdBy, userId))),
  )

/** The org's servers and the person's own, org servers first, each by name. */
export function selectVisibleServers(orgId: string, userId: string, db: Db = getDb()) {
  return db
    .select()
    .from(mcpServers)
    .where(visible(orgId, userId))
    .orderBy(sql`${mcpServers.scope} = 'personal'`, mcpServers.name)
}

export async function selectVisibleServer(orgId: string, userId: string, id: string, db: Db = getDb()) {
  const [row] = await db
    .select()
    .from(mcpServers)
    .where(and(visible(orgId, userId), eq(mcpServers.id, id)))
  return row ?? null
}

/** How many servers one scope holds: the organisation's (`org`), or one person's own there. */
export async function countServers(
  orgId: string,
  scope: McpServerRow['scope'],
  userId: string,
  db: Db = getDb(),
): Promise<number> {
  const whose = scope === 'org' ? undefined : eq(mcpServers.createdBy, userId)
  const [row] = await db
    .select({ n: count() })
    .from(mcpServers)
    .where(and(eq(mcpServers.orgId, orgId), eq(mcpServers.scope, scope), whose))
  return row?.n ?? 0
}

export async function insertServer(row: typeof mcpServers.$inferInsert, db: Db = getDb()) {
  const [created] = await db.insert(mcpServers).values(row).returning()
  return created!
}

export async function updateServer(
  id: string,
  patch: Partial<Pick<McpServerRow, 'name' | 'url' | 'headers' | 'updatedBy'>>,
  db: Db = getDb(),
) {
  const [updated] = await db
    .update(mcpServers)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(mcpServers.id, id))
    .returning()
  return updated ?? null
}

export async function deleteServer(id: string, db: Db = getDb()) {
  await db.delete(mcpServers).where(eq(mcpServers.id, id))
}
