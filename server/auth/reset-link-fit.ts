/**
 * Whether an admin's reset link fits the account it resets: whoever holds it holds the account, so
 * it may open only what its maker administers (decisions 0350, 0508). Checked when the link is made
 * and again when it is used (decision 0522): in the day between, the person can join another
 * organisation, their own workspace can gain a member, an invitation can arrive and the maker can
 * lose their role, and the link used to hand all of it over.
 */
import { and, eq, gt, isNotNull, sql } from 'drizzle-orm'
import { mayInvite } from '../accounts/store.ts'
import { getDb, type Db } from '../db/client.ts'
import { adminResetLinks, member, verification } from '../db/schema/index.ts'
import { queryRows } from '../db/sql.ts'
import { HttpError } from '../lib/errors.ts'
import { logger } from '../lib/logger.ts'
import { voidResetLink } from './admin-set-passwords.ts'

/** better-auth's identifier for a reset token (node_modules/better-auth … routes/password). */
export const RESET_PREFIX = 'reset-password:'

/**
 * Why a link would open more than its maker administers: an organisation with other members they
 * do not administer, a pending invitation they could not have sent, or (when it is used) no
 * organisation of the person's that they still administer.
 */
export type LinkMisfit = 'another-organisation' | 'invitation' | 'maker-not-admin'

/**
 * What stands in the way of a link by `makerId` for `userId`, or null. `exceptOrgId`: the
 * organisation the link is being made in, whose roles the caller's own checks judge.
 */
export async function resetLinkMisfit(
  makerId: string | null,
  userId: string,
  options: { exceptOrgId?: string } = {},
  db: Db = getDb(),
): Promise<LinkMisfit | null> {
  if (!makerId) return 'maker-not-admin'
  const memberships = await membershipsWithMakerRole(makerId, userId, options.exceptOrgId, db)
  // An owner is handed on only by an owner; their own workspace (they alone) is theirs (0254).
  const administered = (m: Membership) =>
    m.maker_role === 'owner' || (m.maker_role === 'admin' && m.role !== 'owner')
  if (memberships.some((m) => m.members > 1 && !administered(m))) return 'another-organisation'
  if (await hasInvitationBeyond(makerId, userId, db)) return 'invitation'
  if (options.exceptOrgId === undefined && !memberships.some(administered)) return 'maker-not-admin'
  return null
}

type Membership = { role: string; maker_role: string | null; members: number }

async function membershipsWithMakerRole(
  makerId: string,
  userId: string,
  exceptOrgId: string | undefined,
  db: Db,
): Promise<Membership[]> {
  return queryRows<Membership>(
    db,
    sql`select m.role,
          (select c.role from member c where c.organization_id = m.organization_id
             and c.user_id = ${makerId}) as maker_role,
          (select count(*)::int from member n where n.organization_id = m.organization_id) as members
        from member m
        where m.user_id = ${userId}
          ${exceptOrgId === undefined ? sql`` : sql`and m.organization_id <> ${exceptOrgId}`}`,
  )
}

/**
 * Whether the person has a pending invitation the maker could not have sent (decision 0508): the
 * link's holder would accept it as them. Every organisation counts, whatever its size.
 */
async function hasInvitationBeyond(makerId: string, userId: string, db: Db): Promise<boolean> {
  const open = await queryRows<{ role: string | null; maker_role: string | null }>(
    db,
    sql`select i.role,
          (select c.role from member c where c.organization_id = i.organization_id
             and c.user_id = ${makerId}) as maker_role
        from invitation i join "user" u on lower(u.email) = lower(i.email)
        where u.id = ${userId} and i.status = 'pending' and i.expires_at > now()`,
  )
  return open.some((i) => !mayInvite(i.maker_role, i.role ?? 'member'))
}

const NO_LONGER: Record<LinkMisfit, string> = {
  'another-organisation':
    'the account now belongs to an organisation that whoever made the link does not administer, ' +
    'and a reset link never opens such an organisation',
  invitation:
    'the account has a pending invitation to an organisation whoever made the link does not ' +
    'administer, and whoever holds the link could accept it as them',
  'maker-not-admin': 'whoever made it no longer administers an organisation this account belongs to',
}

type LiveLink = { userId: string; linkId: string; makerId: string | null }

/**
 * Before better-auth's `/reset-password` spends `token`: when it is an admin's link, its maker
 * must still be able to make it. If not, the link is void from then on and the reset refused. A
 * token that is no admin's live link (a mailed one, an unknown one) is better-auth's to judge.
 *
 * @throws HttpError 403 `reset_link_no_longer_fits`, saying why and what the person can do.
 */
export async function checkResetLinkStillFits(
  token: unknown,
  now = new Date(),
  db: Db = getDb(),
): Promise<void> {
  if (typeof token !== 'string' || token === '') return
  const [link] = await db
    .select({ userId: adminResetLinks.userId, linkId: verification.id, makerId: adminResetLinks.linkActorId })
    .from(verification)
    .innerJoin(
      adminResetLinks,
      and(eq(adminResetLinks.linkId, verification.id), eq(adminResetLinks.userId, verification.value)),
    )
    .where(and(eq(verification.identifier, `${RESET_PREFIX}${token}`), gt(verification.expiresAt, now)))
  if (!link) return
  const misfit = await voidIfMisfit(link, db)
  if (!misfit) return
  throw new HttpError(
    403,
    'reset_link_no_longer_fits',
    `This reset link no longer works: ${NO_LONGER[misfit]}. The person can use "Forgot password", ` +
      'or an admin of each of their organisations can make a new link.',
  )
}

/**
 * After someone joined organisation `orgId`: the live admin links of its members that now open
 * more than their makers administer are void at once, not only when used, so a reset already past
 * its check cannot spend one (the check at use stays: roles and invitations change too).
 */
export async function voidOutgrownResetLinks(
  orgId: string,
  now = new Date(),
  db: Db = getDb(),
): Promise<void> {
  const live = await db
    .select({
      userId: adminResetLinks.userId,
      linkId: adminResetLinks.linkId,
      makerId: adminResetLinks.linkActorId,
    })
    .from(adminResetLinks)
    .innerJoin(member, eq(member.userId, adminResetLinks.userId))
    .where(
      and(
        eq(member.organizationId, orgId),
        isNotNull(adminResetLinks.linkId),
        gt(adminResetLinks.linkExpiresAt, now),
      ),
    )
  for (const link of live) await voidIfMisfit({ ...link, linkId: link.linkId! }, db)
}

async function voidIfMisfit(link: LiveLink, db: Db): Promise<LinkMisfit | null> {
  const misfit = await resetLinkMisfit(link.makerId, link.userId, {}, db)
  if (!misfit) return null
  await voidResetLink(link.userId, link.linkId, db)
  logger.info(
    { userId: link.userId, makerId: link.makerId, misfit },
    'an admin’s reset link no longer fits: void',
  )
  return misfit
}
