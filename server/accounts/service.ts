import { getDb } from '../db/client.ts'
import { revokeTokens } from '../db/revoked-tokens.ts'
import { notifyJobsChanged, notifyOrganizationDeleted, notifyPlaceChanged } from '../db/signal.ts'
import { env } from '../env.ts'
import { newId } from '../lib/ids.ts'
import { isDemotion } from './place-kept.ts'
import { isOrgAdmin, roleOf } from '../access/caller.ts'
import { badFields, badRequest, conflict, forbidden, HttpError, type FieldProblem } from '../lib/errors.ts'
import { recordOrganizationDeletion } from './organization-deletions.ts'
import {
  cancelInvitationsBeyond,
  countOwnedOrganizations,
  findMembership,
  findUser,
  hasNoUsers,
  hasOpenInvitation,
  insertOrganizationWithOwner,
  listMemberships,
  mayInvite,
  dropOffersOf,
  revokeAccessTokensOf,
  suspendJobsOfDepartedMember,
} from './store.ts'

/** "Ana Lima" → "Ana's workspace"; an empty name falls back to "My workspace". */
export function workspaceNameFor(userName: string): string {
  const first = userName.trim().split(/\s+/)[0]
  if (!first) return 'My workspace'
  return first.endsWith('s') ? `${first}' workspace` : `${first}'s workspace`
}

/** Every new account starts as owner of a workspace of its own. */
async function createPersonalWorkspace(newUser: { id: string; name: string }): Promise<string> {
  const orgId = newId('org')
  await insertOrganizationWithOwner({
    orgId,
    name: workspaceNameFor(newUser.name),
    // Slugs must be unique; the org id already is.
    slug: orgId.replace('_', '-'),
    memberId: newId('mem'),
    userId: newUser.id,
  })
  return orgId
}

/**
 * The organisation a fresh session starts in: the user's oldest membership. A user
 * with none (just signed up, or removed from every org) gets a workspace of their own,
 * here rather than in a user-created hook, since better-auth may defer those hooks
 * until after the first session exists.
 */
export async function organizationForNewSession(userId: string): Promise<string> {
  const memberships = await listMemberships(userId)
  if (memberships[0]) return memberships[0].orgId
  const found = await findUser(userId)
  return createPersonalWorkspace({ id: userId, name: found?.name ?? '' })
}

/**
 * What a departed creator's paused job says. An admin takes a shared one over by resuming or
 * transferring it; a personal one nobody else sees, so only its creator, invited back, resumes it.
 */
export const DEPARTED_CREATOR_PAUSE = {
  shared: 'Paused: its creator left the organisation. An admin can take it over.',
  personal:
    'Paused: its creator left the organisation. If they are invited back, they can enable it again to resume it.',
}

/**
 * A creator who leaves takes nobody's identity with them: their jobs pause, and the offers of jobs
 * to them, and by them, end (decision 0512). Their access and
 * calendar tokens for the organisation end for good (refused while they are away, they would work
 * again if they were invited back), and so do the invitations they sent (decision 0476). What they
 * left going ends now, commands included: their runs are cancelled and their chat turns stopped on
 * whichever instance runs them (decision 0476).
 */
export async function onMemberRemoved(orgId: string, userId: string): Promise<void> {
  await suspendJobsOfDepartedMember(orgId, userId, DEPARTED_CREATOR_PAUSE)
  await dropOffersOf(orgId, userId, { to: true, by: true })
  await revokeAccessTokensOf(userId, orgId)
  await cancelInvitationsBeyond(orgId, userId, null)
  // The schedulers hear it and cancel their runs (accounts sits below runs); turns end likewise.
  await notifyPlaceChanged({ orgId, userId, lost: 'membership' })
}

/**
 * A member whose role changed: the invitations they sent that the new role could not send end, and
 * the job offers they made once they are no admin. On
 * a demotion, what they had running with the old role ends (their runs, their chat turns); queued
 * runs start later with the new one (decision 0476).
 */
export async function onMemberRoleChanged(
  orgId: string,
  userId: string,
  role: string,
  previousRole: string,
): Promise<void> {
  await cancelInvitationsBeyond(orgId, userId, role)
  // Only admins offer jobs: a member's offers stand on nobody's authority.
  if (!isOrgAdmin({ role: roleOf(role) })) await dropOffersOf(orgId, userId, { to: false, by: true })
  if (!isDemotion(previousRole, role)) return
  await notifyPlaceChanged({ orgId, userId, lost: 'role', role })
}

/**
 * At acceptance, the invitation's inviter must still be able to send it: a backstop for one sent
 * before its inviter left or was demoted and not cancelled then (decision 0476).
 *
 * @throws HttpError 400 when the inviter no longer may.
 */
export async function checkInvitationStillBacked(invitation: {
  organizationId: string
  inviterId: string
  role: string | null
}): Promise<void> {
  const inviter = await findMembership(invitation.inviterId, invitation.organizationId)
  if (!mayInvite(inviter?.role ?? null, invitation.role ?? 'member')) {
    throw badRequest(
      'This invitation is no longer valid: whoever sent it can no longer invite people with this role. Ask an admin for a new one.',
    )
  }
}

/**
 * Whoever cancels an invitation must be able to send it: an admin does not cancel an owner
 * invitation, which they do not see either (decision 0507). better-auth lets every admin cancel
 * every invitation.
 *
 * @throws HttpError 403 when `userId` may not send an invitation with its role.
 */
export async function checkMayCancelInvitation(
  invitation: { organizationId: string; role: string | null },
  userId: string,
): Promise<void> {
  const canceller = await findMembership(userId, invitation.organizationId)
  if (!mayInvite(canceller?.role ?? null, invitation.role ?? 'member')) {
    throw forbidden('Only owners can cancel an invitation to become an owner')
  }
}

/**
 * A password reset, or a change that signs out every other session, ends the person's access
 * tokens in every organisation and their machine tokens: one made from a stolen session must not
 * outlive the remedy (decision 0527). A machine connected with a token ended here is let go by the
 * instance holding it at its next check of the token (machines/stops.ts STOP_RETRY_MS).
 */
export async function onCredentialsRecovered(userId: string): Promise<void> {
  await revokeAccessTokensOf(userId, null)
  await revokeTokens('machine', userId, getDb())
}

/**
 * Whether this email may create an account: always with `SIGNUP=open`; with `invite-only`, when
 * someone invited it, or when the instance has no account yet (its first person sets it up).
 *
 * @throws HttpError 403 when sign-up is closed to this email.
 */
export async function checkSignUpAllowed(email: unknown, mode: 'open' | 'invite-only'): Promise<void> {
  if (mode === 'open') return
  if (typeof email === 'string' && (await hasOpenInvitation(email.trim()))) return
  if (await hasNoUsers()) return
  throw forbidden('Sign-up on this instance is by invitation only: ask an admin to invite your email')
}

/**
 * Whether this person may make one more organisation. Every organisation has its own limits (jobs,
 * environments, commands at once), and anyone may sign up, so organisations without end would be
 * those limits without end: a person owns at most `USER_MAX_ORGANIZATIONS` (decision 0488), those
 * they deleted in the last 24 hours counted, so that deleting and making one again does not renew
 * the limits each has for the day (decision 0521).
 * @throws HttpError 403 `too_many_organizations` at the limit.
 */
export async function checkMayCreateOrganization(userId: string): Promise<void> {
  const limit = env().USER_MAX_ORGANIZATIONS
  const { owned, deletedToday } = await countOwnedOrganizations(userId)
  if (owned + deletedToday < limit) return
  throw new HttpError(
    403,
    'too_many_organizations',
    deletedToday === 0
      ? `You own ${limit} organisations, the most one person may own.`
      : `You own ${owned} organisations and deleted ${deletedToday} in the last 24 hours; together they are ` +
          `the most one person may have (${limit}). Try again a day after your last delete.`,
  )
}

/**
 * Whether a session may be made active in the organisation a `set-active` call names: by
 * `organizationId`, else by `organizationSlug`, else the session's own (better-auth's order). Only
 * one the person belongs to, and never none, since every page needs one. better-auth refuses
 * another organisation too, but only after clearing the session's (decision 0532), so this is
 * checked before it runs. Compared with the person's memberships, not looked up: what is sent
 * never reaches a query.
 * @throws HttpError 400 naming each field that is not text (or an id of null, which would unset
 *   it); 403 when the person is not a member of the organisation named (or none has that name).
 */
export async function checkMaySetActiveOrganization(
  userId: string,
  target: { organizationId?: unknown; organizationSlug?: unknown },
  currentOrgId: string | null | undefined,
): Promise<void> {
  const { organizationId: id, organizationSlug: slug } = target
  const problems: FieldProblem[] = []
  if (id === null)
    problems.push({
      field: 'organizationId',
      message: 'organizationId: a session is always in one of your organisations; name the one to switch to',
    })
  else if (id !== undefined && typeof id !== 'string')
    problems.push({ field: 'organizationId', message: "organizationId: must be an organisation's id" })
  if (slug !== undefined && typeof slug !== 'string')
    problems.push({ field: 'organizationSlug', message: "organizationSlug: must be an organisation's slug" })
  if (problems.length) throw badFields(problems)
  const memberships = await listMemberships(userId)
  const member = id
    ? memberships.some((m) => m.orgId === id)
    : slug
      ? memberships.some((m) => m.orgSlug === slug)
      : !currentOrgId || memberships.some((m) => m.orgId === currentOrgId)
  if (member) return
  const field = id ? 'organizationId' : slug ? 'organizationSlug' : undefined
  throw new HttpError(403, 'forbidden', 'You are not a member of that organisation', field)
}

/**
 * Whether this person may delete the organisation (its owners may, better-auth checks): not their
 * only one, as a session needs one and a new workspace would be one more made without counting
 * (decision 0521).
 * @throws HttpError 409 when it is the person's only organisation.
 */
export async function checkMayDeleteOrganization(orgId: string, userId: string): Promise<void> {
  const memberships = await listMemberships(userId)
  if (memberships.every((m) => m.orgId === orgId)) {
    throw conflict(
      'This is your only organisation, so it cannot be deleted. Create or join another one first.',
      'organizationId',
    )
  }
}

/**
 * Just before an owner's delete goes ahead: the delete is recorded, with the organisation's
 * environments, before their records go (decision 0521).
 */
export async function beforeOrganizationDeleted(orgId: string, userId: string): Promise<void> {
  await checkMayDeleteOrganization(orgId, userId)
  await recordOrganizationDeletion(orgId, userId)
}

/**
 * Once an organisation is deleted, every instance is told: each ends the chat turns it runs there
 * and their commands, and removes the folders and snapshots of its environments from its disk. Its
 * runs' rows went with it, so the schedulers, woken, find they no longer hold them and abort them.
 */
export async function onOrganizationDeleted(orgId: string): Promise<void> {
  await notifyOrganizationDeleted({ orgId })
  await notifyJobsChanged()
}
