import { redirect } from 'react-router'
import { getCaller, type Caller } from '../auth/caller.ts'
import { findMembership } from '../accounts/store.ts'
import { HttpError } from '../lib/errors.ts'
import { acceptInvitation, findInvitation, switchToOrganisation } from '../auth/members.ts'

/**
 * What the invitation page says, one state per thing that can have happened, each with what to do
 * next. Whoever is not the invited person (signed out, or signed in with another email) learns
 * nothing about the invitation: not its organisation, its address nor whether it is still open.
 */
export type InvitationView =
  | { state: 'signed-out'; invitationId: string }
  | { state: 'not-found'; invitationId: string; signedInAs: string }
  | { state: 'other-account'; invitationId: string; signedInAs: string }
  | {
      state: 'ready'
      invitationId: string
      orgName: string
      role: string
      inviterEmail: string
      email: string
    }
  | { state: 'accepted'; invitationId: string; orgName: string; stillMember: boolean; signedInAs: string }
  | { state: 'cancelled'; invitationId: string; orgName: string; inviterEmail: string }
  | { state: 'expired'; invitationId: string; orgName: string; inviterEmail: string; expiredAt: string }

const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** The invitation, when it exists and was sent to the caller's email; else null. */
async function invitationOf(caller: Caller, invitationId: string) {
  const found = await findInvitation(invitationId)
  return found && sameEmail(found.email, caller.email) ? found : null
}

export async function loadInvitationPage(request: Request, invitationId: string): Promise<InvitationView> {
  const caller = await getCaller(request)
  if (!caller) return { state: 'signed-out', invitationId }
  const found = await findInvitation(invitationId)
  if (!found) return { state: 'not-found', invitationId, signedInAs: caller.email }
  if (!sameEmail(found.email, caller.email))
    return { state: 'other-account', invitationId, signedInAs: caller.email }
  const { orgName, inviterEmail } = found
  if (found.status === 'accepted') {
    const stillMember = Boolean(await findMembership(caller.userId, found.orgId))
    return { state: 'accepted', invitationId, orgName, stillMember, signedInAs: caller.email }
  }
  // better-auth's other closed states: cancelled by an admin, or declined by the person.
  if (found.status !== 'pending') return { state: 'cancelled', invitationId, orgName, inviterEmail }
  if (found.expiresAt.getTime() <= Date.now())
    return { state: 'expired', invitationId, orgName, inviterEmail, expiredAt: found.expiresAt.toISOString() }
  return {
    state: 'ready',
    invitationId,
    orgName,
    role: found.role ?? 'member',
    inviterEmail,
    email: found.email,
  }
}

/**
 * Join (intent `accept`), or open the organisation an accepted invitation joined (`open`). A
 * refusal (the invitation was cancelled a moment ago) comes back as `error`; the page reloads
 * and says what happened.
 */
export async function handleInvitationAction(request: Request, caller: Caller, invitationId: string) {
  const form = await request.formData()
  try {
    if (form.get('intent') === 'open') {
      const found = await invitationOf(caller, invitationId)
      if (found) await switchToOrganisation(request.headers, found.orgId)
    } else {
      await acceptInvitation(request.headers, invitationId)
    }
  } catch (err) {
    if (!(err instanceof HttpError)) throw err
    return { error: err.message }
  }
  return redirect('/jobs')
}
