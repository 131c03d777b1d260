/** Server side of the notifications page: the caller's alerts, and "mark all read". */
import type { Caller } from '../auth/caller.ts'
import { listNotifications, markNotificationsRead } from '../integrations/views.ts'
import { emailEnabled } from '../integrations/email.ts'

export async function loadNotificationsPage(caller: Caller) {
  return { ...(await listNotifications(caller)), emailEnabled: emailEnabled() }
}

export async function markAllRead(caller: Caller) {
  return { unread: await markNotificationsRead(caller, {}) }
}
