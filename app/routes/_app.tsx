import { Outlet } from 'react-router'
import { Brand, PhoneMenu, Sidebar } from '#app/components/app-nav.tsx'
import { ChatPanel, ChatProvider, ChatToggle } from '#app/components/chat/chat-panel.tsx'
import { NotificationsBell } from '#app/components/notifications-bell.tsx'
import { SchedulerBanner } from '#app/components/scheduler-banner.tsx'
import { BudgetBanner } from '#app/components/budget-banner.tsx'
import { getLayoutData } from '#server/pages/layout.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import type { Route } from './+types/_app'

export async function loader({ request }: Route.LoaderArgs) {
  return getLayoutData(await requirePageCaller(request))
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  const { user, org, orgs, schedulerWarning, budgetPause, unread } = loaderData
  const navProps = { user, org, orgs }
  return (
    <ChatProvider>
      <div className="flex min-h-screen">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <Sidebar {...navProps} />
        <div className="flex min-w-0 flex-1 flex-col">
          {/* The agent's button lives here, in the layout, so it never covers the page's own controls. */}
          <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center gap-2 border-b border-stone-200 bg-white/95 px-4 md:px-8 dark:border-stone-800 dark:bg-stone-950/95">
            <PhoneMenu {...navProps} />
            <Brand className="md:hidden" />
            <div className="flex-1" />
            <NotificationsBell unread={unread} />
            <ChatToggle />
          </header>
          <main id="main" className="min-w-0 flex-1 px-4 py-6 md:px-8 md:py-8">
            <div className="mx-auto max-w-6xl">
              <SchedulerBanner warning={schedulerWarning} />
              <BudgetBanner pause={budgetPause} canRaise={org.role !== 'member'} />
              <Outlet />
            </div>
          </main>
        </div>
        <ChatPanel />
      </div>
    </ChatProvider>
  )
}
