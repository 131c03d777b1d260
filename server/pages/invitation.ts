import { redirect } from 'react-router'
import { getCaller } from '../auth/caller.ts'
import { HttpError } from '../lib/errors.ts'
import { acceptInvitation, getInvitationForAcceptance } from '../auth/members.ts'

export type InvitationView =
  | { state: 'signed-out'; invitationId: string }
  | {
      state: 'ready'
      invitationId: string
      orgName: string
      role: string
      inviterEmail: string
      email: string
    }
  | { state: 'unavailable'; invitationId: string; message: string; signedInAs: string }

export async function loadInvitationPage(request: Request, invitationId: string): Promise<InvitationView> {
  const caller = await getCaller(request)
  if (!caller) return { state: 'signed-out', invitationId }
  try {
    const inv = await getInvitationForAcceptance(request.headers, invitationId)
    return {
      state: 'ready',
      invitationId,
      orgName: inv.organizationName,
      role: inv.role ?? 'member',
      inviterEmail: inv.inviterEmail,
      email: inv.email,
    }
  } catch (err) {
    if (!(err instanceof HttpError)) throw err
    return {
      state: 'unavailable',
      invitationId,
      signedInAs: caller.email,
      message: 'This invitation is not for this account, was cancelled, or has expired.',
    }
  }
}

export async function acceptInvitationAndRedirect(request: Request, invitationId: string) {
  await acceptInvitation(request.headers, invitationId)
  return redirect('/jobs')
}
