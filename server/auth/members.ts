/**
 * Members and invitations of the caller's organisation. Changes go through
 * better-auth's organization endpoints (one door), called with the caller's
 * own session so its role checks apply; we only shape inputs and errors.
 */
import { and, asc, eq, gt } from 'drizzle-orm'
import { z } from 'zod'
import { checkInvitationPace } from '../accounts/invitation-pace.ts'
import { mayInvite } from '../accounts/store.ts'
import { authAnswer } from './auth-answer.ts'
import { COUNTED_WRITES_LOCK, getAuth } from './auth.ts'
import { isOrgAdmin, type Caller } from './caller.ts'
import { getDb } from '../db/client.ts'
import { whileLocked } from '../db/lock.ts'
import { invitation, member, organization, user } from '../db/schema/index.ts'
import { conflict, forbidden } from '../lib/errors.ts'
import { parseInput } from '../lib/validate.ts'
import { MAX_EMAIL } from './user-fields.ts'

const RoleInput = z.enum(['member', 'admin', 'owner']).describe('Organisation role')
const InviteInput = z.object({
  email: z.email('Enter a valid email address').max(MAX_EMAIL).describe('Who to invite'),
  role: RoleInput.default('member'),
})
const UpdateRoleInput = z.object({ memberId: z.string().min(1), role: RoleInput })
const RemoveMemberInput = z.object({ memberId: z.string().min(1) })
const CancelInvitationInput = z.object({ invitationId: z.string().min(1) })

/**
 * The organisation's members, and for an admin or owner the pending invitations they could have
 * sent themselves: an admin never sees an owner invitation. Its link opens it for whoever registers
 * its address first (addresses are not verified), so an admin holding it could make themselves an
 * owner through a second account (decision 0507).
 */
export async function listMembersAndInvitations(caller: Caller) {
  const db = getDb()
  const members = await db
    .select({
      id: member.id,
      userId: user.id,
      name: user.name,
      email: user.email,
      role: member.role,
      joinedAt: member.createdAt,
    })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(eq(member.organizationId, caller.orgId))
    .orderBy(asc(member.createdAt))
  const pending = isOrgAdmin(caller)
    ? await db
        .select({
          id: invitation.id,
          email: invitation.email,
          role: invitation.role,
          expiresAt: invitation.expiresAt,
        })
        .from(invitation)
        .where(
          and(
            eq(invitation.organizationId, caller.orgId),
            eq(invitation.status, 'pending'),
            gt(invitation.expiresAt, new Date()),
          ),
        )
        .orderBy(asc(invitation.createdAt))
    : []
  const invitations = pending.filter((i) => mayInvite(caller.role, i.role ?? 'member'))
  return { members, invitations }
}

export async function inviteMember(caller: Caller, headers: Headers, data: unknown) {
  if (!isOrgAdmin(caller)) throw forbidden('Only admins and owners can invite people')
  const input = parseInput(InviteInput, data)
  if (input.role === 'owner' && caller.role !== 'owner') throw forbidden('Only owners can invite owners')
  // Counted and made under the lock the HTTP endpoint's invitations take (auth.ts).
  const created = await whileLocked(COUNTED_WRITES_LOCK, async () => {
    await checkInvitationPace(caller.orgId, input.email)
    return authAnswer<{ id: string }>(
      getAuth().api.createInvitation({
        body: { email: input.email, role: input.role, organizationId: caller.orgId, resend: true },
        headers,
        asResponse: true,
      }),
    )
  })
  return { invitationId: created.id }
}

export async function updateMemberRole(caller: Caller, headers: Headers, data: unknown) {
  const input = parseInput(UpdateRoleInput, data)
  await authAnswer(
    getAuth().api.updateMemberRole({
      body: { memberId: input.memberId, role: input.role, organizationId: caller.orgId },
      headers,
      asResponse: true,
    }),
  )
}

/**
 * Removes a member; their jobs here pause and their access tokens here end (`onMemberRemoved`).
 * An owner is refused here in our words: better-auth answers an admin, and the last owner's
 * removal, with "You cannot leave the organization as the only owner", which names neither.
 */
export async function removeMember(caller: Caller, headers: Headers, data: unknown) {
  const input = parseInput(RemoveMemberInput, data)
  const owners = await getDb()
    .select({ id: member.id, name: user.name })
    .from(member)
    .innerJoin(user, eq(user.id, member.userId))
    .where(and(eq(member.organizationId, caller.orgId), eq(member.role, 'owner')))
  const owner = owners.find((o) => o.id === input.memberId)
  if (owner && caller.role !== 'owner')
    throw forbidden(`${owner.name} is an owner: only an owner removes an owner`)
  if (owner && owners.length === 1)
    throw conflict(`${owner.name} is the only owner: make someone else an owner first`)
  await authAnswer(
    getAuth().api.removeMember({
      body: { memberIdOrEmail: input.memberId, organizationId: caller.orgId },
      headers,
      asResponse: true,
    }),
  )
}

export async function cancelInvitation(caller: Caller, headers: Headers, data: unknown) {
  const input = parseInput(CancelInvitationInput, data)
  await authAnswer(
    getAuth().api.cancelInvitation({ body: { invitationId: input.invitationId }, headers, asResponse: true }),
  )
}

/**
 * An invitation as its page needs it, whatever its state (pending, accepted, cancelled, expired),
 * so the page can say what happened; null when no invitation has this id. The page shows its
 * details only to the person it was sent to.
 */
export async function findInvitation(invitationId: string) {
  const [found] = await getDb()
    .select({
      email: invitation.email,
      role: invitation.role,
      status: invitation.status,
      expiresAt: invitation.expiresAt,
      orgId: invitation.organizationId,
      orgName: organization.name,
      inviterEmail: user.email,
    })
    .from(invitation)
    .innerJoin(organization, eq(organization.id, invitation.organizationId))
    .innerJoin(user, eq(user.id, invitation.inviterId))
    .where(eq(invitation.id, invitationId))
  return found ?? null
}

/** Makes `orgId` the session's organisation; one the caller is not in is refused (auth.ts, 0532). */
export async function switchToOrganisation(headers: Headers, orgId: string) {
  await authAnswer(
    getAuth().api.setActiveOrganization({ body: { organizationId: orgId }, headers, asResponse: true }),
  )
}

export async function acceptInvitation(headers: Headers, invitationId: string) {
  const accepted = await authAnswer<{ invitation: { organizationId: string } } | null>(
    getAuth().api.acceptInvitation({ body: { invitationId }, headers, asResponse: true }),
  )
  const orgId = accepted?.invitation.organizationId
  if (orgId) await switchToOrganisation(headers, orgId)
  return { orgId }
}
