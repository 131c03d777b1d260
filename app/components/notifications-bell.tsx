/** The header's bell: unread alerts about jobs (failures, pauses, recoveries, dead-man breaches). */
import { Bell } from 'lucide-react'
import { Link } from 'react-router'

export function NotificationsBell({ unread }: { unread: number }) {
  const label = unread === 0 ? 'Notifications' : `Notifications, ${unread} unread`
  return (
    <Link
      to="/notifications"
      aria-label={label}
      title={label}
      className="relative inline-flex size-9 items-center justify-center rounded-md text-stone-600 hover:bg-stone-100 dark:text-stone-300 dark:hover:bg-stone-800"
    >
      <Bell className="size-5" aria-hidden />
      {unread > 0 ? (
        <span
          data-testid="unread-count"
          className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-semibold text-white"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </Link>
  )
}
