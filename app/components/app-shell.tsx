import { Brand, PhoneMenu, Sidebar } from '#app/components/app-nav.tsx'
import { ChatPanel, ChatProvider, ChatToggle } from '#app/components/chat/chat-panel.tsx'
import { NotificationsBell } from '#app/components/notifications-bell.tsx'
import { SchedulerBanner } from '#app/components/scheduler-banner.tsx'
import { BudgetBanner } from '#app/components/budget-banner.tsx'
import { useEffect, useState } from 'react'
import { warmAppPages } from '#app/lib/warm-routes.ts'
import type { getLayoutData } from '#server/pages/layout.ts'

/** What the app layout's loader answers (server/pages/layout.ts). */
export type ShellData = Awaited<ReturnType<typeof getLayoutData>>

/**
 * The shell's data as this browser tab shows it now: set once a shell has rendered, cleared when
 * it goes. Never on the server (effects do not run there), where it would be someone else's.
 */
let shown: ShellData | undefined

/**
 * The data for a shell around an error card: the layout's own, or when that failed to load (React
 * Router drops a route's data when its loader throws) the data of the shell the error replaced,
 * kept for as long as the card shows.
 */
export function useShellData(loaded: ShellData | undefined): ShellData | undefined {
  const [replaced] = useState(() => shown)
  return loaded ?? replaced
}

/**
 * The signed-in app around every page: the sidebar, the header with the bell and the agent's
 * button, the banners and the chat panel. The layout route renders its page inside it, and so does
 * its ErrorBoundary, so a page that fails keeps the navigation (decision 0529).
 */
export function AppShell({ data, children }: { data: ShellData; children: React.ReactNode }) {
  const { user, org, orgs, schedulerWarning, budgetPause, unread } = data
  const navProps = { user, org, orgs }
  // Every page's code, ahead of need: a link followed offline then fails in the app, not the browser.
  useEffect(() => warmAppPages(), [])
  useEffect(() => {
    shown = data
    return () => void (shown = undefined)
  }, [data])
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
            {/* A query container: a page gives way by the width it gets, which the open chat narrows,
                not by the window's (`@4xl:`, not `lg:`; decision 0529). */}
            <div className="@container mx-auto max-w-6xl">
              <SchedulerBanner warning={schedulerWarning} />
              <BudgetBanner pause={budgetPause} canRaise={org.role !== 'member'} />
              {children}
            </div>
          </main>
        </div>
        <ChatPanel />
      </div>
    </ChatProvider>
  )
}
