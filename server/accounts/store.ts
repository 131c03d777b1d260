import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm'
import { getDb, type Db } from '../db/client.ts'
import { revokeTokens } from '../db/revoked-tokens.ts'
import {
  accessTokens,
  calendarTokens,
  invitation,
  jobs,
  jobTransferOffers,
  member,
  organization,
  user,
} from '../db/schema/index.ts'
import { invalidateCallers } from '../access/caller-cache.ts'
import { roleOf, type OrgRole } from '../access/caller.ts'
import { deletedTodayBy } from './organization-deletions.ts'

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
 * How many organisations the user owns (their own workspace and any they made or were handed),
 * and how many of those they deleted in the last 24 hours (decision 0521).
 */
export async function countOwnedOrganizations(
  userId: string,
  db: Db = getDb(),
): Promise<{ owned: number; deletedToday: number }> {
  const [row] = await db
    .select({
      owned: sql<number>`count(*)::int`,
      deletedToday: sql<number>`${deletedTodayBy(userId)}`,
    })
    .from(member)
    .where(and(eq(member.userId, userId), eq(member.role, 'owner')))
  return { owned: Number(row?.owned ?? 0), deletedToday: Number(row?.deletedToday ?? 0) }
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

/**
 * Pauses every job a departed member created in the org, each with the reason for its scope: an
 * admin may take a shared one over, while a personal one waits for its creator (no one else sees it).
 */
export async function suspendJobsOfDepartedMember(
  orgId: string,
  userId: string,
  reasons: { personal: string; shared: string },
  db: Db = getDb(),
): Promise<number> {
  const rows = await db
    .update(jobs)
    // No next run while paused: the scheduler skips it anyway, and the page should not promise one.
    .set({
      suspendedReason: sql`case when ${jobs.scope} = 'personal' then ${reasons.personal} else ${reasons.shared} end`,
      nextRunAt: null,
      stateUpdatedAt: sql`now()`,
    })
    .where(and(eq(jobs.orgId, orgId), eq(jobs.createdBy, userId)))
    .returning({ id: jobs.id })
  return rows.length
}

/**
 * Withdraws the offers of jobs in the org that stand on `userId`: those made to them (`to`: they
 * left, so accepting is refused from then on, and the offer stood on the job page until an admin
 * withdrew it by hand) and those they made (`by`: an offer carries its maker's authority, as an
 * invitation does, and they left or are no admin any more). Decisions 0512 and 0476.
 */
export async function dropOffersOf(
  orgId: string,
  userId: string,
  which: { to: boolean; by: boolean },
  db: Db = getDb(),
): Promise<void> {
  const whose = [
    ...(which.to ? [eq(jobTransferOffers.toUserId, userId)] : []),
    ...(which.by ? [eq(jobTransferOffers.offeredBy, userId)] : []),
  ]
  if (whose.length === 0) return
  await db
    .delete(jobTransferOffers)
    .where(
      and(
        or(...whose),
        inArray(jobTransferOffers.jobId, db.select({ id: jobs.id }).from(jobs).where(eq(jobs.orgId, orgId))),
      ),
    )
}

/**
 * Ends a person's tokens that read or act in an organisation without a session: their personal
 * access tokens and calendar feed tokens, those of one organisation (they left it), or all of them
 * (their password was reset or changed with every other session signed out). Returns how many
 * access tokens it revoked. Refused while the person is away, either kind would work again the day
 * they were invited back, so they end for good here (decision 0476).
 */
export async function revokeAccessTokensOf(
  userId: string,
  orgId: string | null,
  db: Db = getDb(),
): Promise<number> {
  const rows = await revokeTokens('access', userId, db, {
    where: orgId === null ? undefined : eq(accessTokens.orgId, orgId),
  })
  await db
    .delete(calendarTokens)
    .where(
      and(eq(calendarTokens.userId, userId), orgId === null ? undefined : eq(calendarTokens.orgId, orgId)),
    )
  return rows.length
}

/** The roles each role may invite (better-auth: only an owner invites owners; members invite nobody). */
const MAY_INVITE: Record<OrgRole, string[]> = {
  owner: ['owner', 'admin', 'member'],
  admin: ['admin', 'member'],
  member: [],
}

/** Whether someone with `inviterRole` (null: no longer a member) may send an invitation for `role`. */
export function mayInvite(inviterRole: string | null, role: string): boolean {
  if (inviterRole === null) return false
  const allowed = MAY_INVITE[roleOf(inviterRole)]
  return role.split(',').every((r) => allowed.includes(r.trim()))
}

/**
 * Cancels the open invitations `inviterId` sent in `orgId` that their role now (`role`; null: they
 * left) would not let them send: an invitation carries its inviter's authority, and a rogue admin
 * must not keep a way back in for a second account of theirs (decision 0476). Returns how many.
 */
export async function cancelInvitationsBeyond(
  orgId: string,
  inviterId: string,
  role: string | null,
  db: Db = getDb(),
): Promise<number> {
  const open = await db
    .select({ id: invitation.id, role: invitation.role })
    .from(invitation)
    .where(
      and(
        eq(invitation.organizationId, orgId),
        eq(invitation.inviterId, inviterId),
        eq(invitation.status, 'pending'),
      ),
    )
  const beyond = open.filter((i) => !mayInvite(role, i.role ?? 'member')).map((i) => i.id)
  if (beyond.length === 0) return 0
  await db
    .update(invitation)
    .set({ status: 'canceled' })
    .where(and(inArray(invitation.id, beyond), eq(invitation.status, 'pending')))
  return beyond.length
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
