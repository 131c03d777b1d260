import { appUrl } from '../auth/auth.ts'
import { emailEnabled } from '../integrations/email.ts'
import { isOrgAdmin, type Caller } from '../auth/caller.ts'
import { badRequest } from '../lib/errors.ts'
import { runForm } from './forms.ts'
import { listMemberAudit } from '../auth/reset-links.ts'
import { listSharedJobOwners, transferMemberJobs } from '../jobs/transfer.ts'
import { createResetLinkEndingMachines } from '../machines/service.ts'
import {
  cancelInvitation,
  inviteMember,
  listMembersAndInvitations,
  removeMember,
  updateMemberRole,
} from '../auth/members.ts'

const invitationLink = (invitationId: string) => `${appUrl()}/accept-invitation/${invitationId}`

export async function loadMembersPage(caller: Caller) {
  const [{ members, invitations }, jobOwners, audit] = await Promise.all([
    listMembersAndInvitations(caller),
    listSharedJobOwners(caller),
    listMemberAudit(caller),
  ])
  return {
    jobOwners,
    me: { userId: caller.userId, role: caller.role, canManage: isOrgAdmin(caller) },
    members,
    invitations: invitations.map((i) => ({ ...i, link: invitationLink(i.id) })),
    audit,
    // With SMTP_URL the invitation is mailed too; the page says whether to share the link by hand.
    invitationsMailed: emailEnabled(),
  }
}

/** The members page's form actions, by intent. */
export async function handleMembersAction(caller: Caller, request: Request) {
  const headers = request.headers
  return runForm(request, async ({ intent = '', ...fields }) => {
    switch (intent) {
      case 'invite': {
        const { invitationId } = await inviteMember(caller, headers, fields)
        return { link: invitationLink(invitationId) }
      }
      case 'update-role':
        return updateMemberRole(caller, headers, fields)
      case 'remove':
        return removeMember(caller, headers, fields)
      case 'transfer-jobs':
        return transferMemberJobs(caller, fields.fromUserId ?? '', { toUserId: fields.toUserId })
      case 'reset-link':
        return createResetLinkEndingMachines(caller, fields.userId ?? '')
      case 'cancel-invitation':
        return cancelInvitation(caller, headers, fields)
      default:
        throw badRequest(`Unknown intent "${intent}"`, 'intent')
    }
  })
}
