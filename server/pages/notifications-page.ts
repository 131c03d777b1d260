/** Server side of the notifications page: the caller's alerts, and "mark all read". */
import { isOrgAdmin, type Caller } from '../auth/caller.ts'
import { listNotifications, markNotificationsRead } from '../integrations/views.ts'
import { emailEnabled } from '../integrations/email.ts'

/**
 * `canSeeServerSettings`: an admin or owner is told which server setting turns email on (they can
 * take it to whoever runs the server); a member is told where the alerts reach them instead.
 */
export async function loadNotificationsPage(caller: Caller) {
  return {
    ...(await listNotifications(caller)),
    emailEnabled: emailEnabled(),
    canSeeServerSettings: isOrgAdmin(caller),
  }
}

export async function markAllRead(caller: Caller) {
  return { unread: await markNotificationsRead(caller, {}) }
}
