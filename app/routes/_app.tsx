import { CalendarClock, FolderTree, Settings } from 'lucide-react'
import { NavLink, Outlet } from 'react-router'
import { ChatPanel } from '#app/components/chat/chat-panel.tsx'
import { OrgSwitcher, UserMenu } from '#app/components/org-switcher.tsx'
import { SchedulerBanner } from '#app/components/scheduler-banner.tsx'
import { cn } from '#app/lib/cn.ts'
import { getLayoutData } from '#server/pages/layout.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { getSchedulerWarning } from '#server/scheduler/status.ts'
import type { Route } from './+types/_app'

export async function loader({ request }: Route.LoaderArgs) {
  const caller = await requirePageCaller(request)
  const [layout, schedulerWarning] = await Promise.all([getLayoutData(caller), getSchedulerWarning()])
  return { ...layout, schedulerWarning }
}

const nav = [
  { to: '/jobs', label: 'Jobs', icon: CalendarClock },
  { to: '/workspace', label: 'Workspace', icon: FolderTree },
  { to: '/settings', label: 'Settings', icon: Settings },
]

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  const { user, org, orgs, schedulerWarning } = loaderData
  return (
    <div className="flex min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <aside className="sticky top-0 flex h-screen w-60 shrink-0 flex-col border-r border-stone-200 bg-stone-100/60 px-3 py-4 dark:border-stone-800 dark:bg-stone-900/60">
        <div className="mb-4 flex items-center gap-2 px-2">
          <img src="/favicon.svg" alt="" className="size-6" />
          <span className="font-semibold tracking-tight">Clockwork</span>
        </div>
        <OrgSwitcher current={org} orgs={orgs} />
        <nav aria-label="Main" className="mt-4 flex flex-col gap-0.5">
          {nav.map(({ to, label, icon: Icon }) => (
            <NavLink
              key={to}
              to={to}
              className={({ isActive }) =>
                cn(
                  'flex items-center gap-2.5 rounded-md px-2.5 py-2 text-sm font-medium',
                  isActive
                    ? 'bg-white text-stone-900 shadow-sm dark:bg-stone-800 dark:text-white'
                    : 'text-stone-600 hover:bg-stone-200/60 hover:text-stone-900 dark:text-stone-400 dark:hover:bg-stone-800 dark:hover:text-white',
                )
              }
            >
              <Icon className="size-4" aria-hidden />
              {label}
            </NavLink>
          ))}
        </nav>
        <div className="mt-auto">
          <UserMenu name={user.name} email={user.email} />
        </div>
      </aside>
      <main id="main" className="min-w-0 flex-1 px-8 py-8">
        <div className="mx-auto max-w-6xl">
          <SchedulerBanner warning={schedulerWarning} />
          <Outlet />
        </div>
      </main>
      <ChatPanel />
    </div>
  )
}
