import { and, asc, eq, sql, type SQL } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { revokeTokens } from '../db/revoked-tokens.ts'
import { accessTokens, invitation, jobs, member, organization, user } from '../db/schema/index.ts'
import { invalidateCallers } from '../access/caller-cache.ts'

export type MembershipRow = { orgId: string; orgName: string; orgSlug: string; role: string }

export async function insertOrganizationWithOwner(
  input: { orgId: string; name: string; slug: string; memberId: string; userId: string },
  db: Db = getDb(),
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(organization).values({ id: input.orgId, name: input.name, slug: input.slug })
    await tx
      .insert(member)
      .values({ id: input.memberId, organizationId: input.orgId, userId: input.userId, role: 'owner' })
  })
}

/**
 * {@link listMemberships} as a JSON array of {@link MembershipRow}s in a scalar subquery, for a
 * statement that reads more at once (the page layout).
 */
export const membershipsJson = (userId: string): SQL =>
  sql`(select coalesce(json_agg(json_build_object('orgId', o.id, 'orgName', o.name, 'orgSlug', o.slug,
        'role', m.role) order by m.created_at), '[]'::json)
      from member m join organization o on o.id = m.organization_id where m.user_id = ${userId})`

/** The user's organisations, oldest membership first. */
export async function listMemberships(userId: string, db: Db = getDb()): Promise<MembershipRow[]> {
  return db
    .select({
      orgId: organization.id,
      orgName: organization.name,
      orgSlug: organization.slug,
      role: member.role,
    })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(eq(member.userId, userId))
    .orderBy(asc(member.createdAt))
}

export async function findMembership(
  userId: string,
  orgId: string,
  db: Db = getDb(),
): Promise<MembershipRow | undefined> {
  const rows = await db
    .select({
      orgId: organization.id,
      orgName: organization.name,
      orgSlug: organization.slug,
      role: member.role,
    })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .where(and(eq(member.userId, userId), eq(member.organizationId, orgId)))
  return rows[0]
}

export async function findUser(userId: string, db: Db = getDb()) {
  const rows = await db.select().from(user).where(eq(user.id, userId))
  return rows[0]
}

/** Pauses every job a departed member created in the org, until an admin takes it over. */
export async function suspendJobsOfDepartedMember(
  orgId: string,
  userId: string,
  reason: string,
  db: Db = getDb(),
): Promise<number> {
  const rows = await db
    .update(jobs)
    // No next run while paused: the scheduler skips it anyway, and the page should not promise one.
    .set({ suspendedReason: reason, nextRunAt: null, stateUpdatedAt: sql`now()` })
    .where(and(eq(jobs.orgId, orgId), eq(jobs.createdBy, userId)))
    .returning({ id: jobs.id })
  return rows.length
}

/**
 * Ends a person's personal access tokens: those of one organisation (they left it), or all of them
 * (their password was reset or changed with every other session signed out). Returns how many.
 */
export async function revokeAccessTokensOf(
  userId: string,
  orgId: string | null,
  db: Db = getDb(),
): Promise<number> {
  const rows = await revokeTokens('access', userId, db, {
    where: orgId === null ? undefined : eq(accessTokens.orgId, orgId),
  })
  return rows.length
}

export async function setUserTimezone(userId: string, timezone: string | null, db: Db = getDb()) {
  await db
    .update(user)
    .set({ timezone, updatedAt: sql`now()` })
    .where(eq(user.id, userId))
  invalidateCallers()
}

/** True when no account exists yet (the first person may always sign up). */
export async function hasNoUsers(db: Db = getDb()): Promise<boolean> {
  const rows = await db.select({ id: user.id }).from(user).limit(1)
  return rows.length === 0
}

/** True when someone invited this email and the invitation is still open. */
export async function hasOpenInvitation(email: string, db: Db = getDb()): Promise<boolean> {
  const rows = await db
    .select({ id: invitation.id })
    .from(invitation)
    .where(
      and(
        sql`lower(${invitation.email}) = lower(${email})`,
        eq(invitation.status, 'pending'),
        sql`${invitation.expiresAt} > now()`,
      ),
    )
    .limit(1)
  return rows.length > 0
}
