import { BookOpen, Boxes, CalendarClock, CalendarDays, FolderTree, Menu, Settings, X } from 'lucide-react'
import { Dialog } from 'radix-ui'
import { useState } from 'react'
import { NavLink } from 'react-router'
import { OrgSwitcher, UserMenu } from '#app/components/org-switcher.tsx'
import { cn } from '#app/lib/cn.ts'
import { useHydrated } from '#app/lib/hydrated.ts'

type Org = { id: string; name: string; role: string }
export type NavProps = { user: { name: string; email: string }; org: Org; orgs: Org[] }

const links = [
  { to: '/jobs', label: 'Jobs', icon: CalendarClock },
  { to: '/calendar', label: 'Calendar', icon: CalendarDays },
  { to: '/workspace', label: 'Workspace', icon: FolderTree },
  { to: '/environments', label: 'Environments', icon: Boxes },
  { to: '/skills', label: 'Skills', icon: BookOpen },
  { to: '/settings', label: 'Settings', icon: Settings },
]

export function Brand({ className }: { className?: string }) {
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <img src="/favicon.svg" alt="" className="size-6" />
      <span className="font-semibold tracking-tight">Clockwork</span>
    </div>
  )
}

/** The organisation, the main links and the account: the sidebar's content, and the phone menu's. */
function NavContent({
  user,
  org,
  orgs,
  onNavigate,
  inSheet = false,
}: NavProps & { onNavigate?: () => void; inSheet?: boolean }) {
  return (
    <>
      <OrgSwitcher current={org} orgs={orgs} mountNow={inSheet} />
      <nav aria-label="Main" className="mt-4 flex flex-col gap-0.5">
        {links.map(({ to, label, icon: Icon }) => (
          <NavLink
            key={to}
            to={to}
            onClick={onNavigate}
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
      <div className="mt-auto pt-4">
        <UserMenu name={user.name} email={user.email} mountNow={inSheet} />
      </div>
    </>
  )
}

const panelClass =
  'flex flex-col border-r border-stone-200 bg-stone-100 px-3 py-4 dark:border-stone-800 dark:bg-stone-900'

/** From 768 px up: the sidebar, always there. */
export function Sidebar(props: NavProps) {
  return (
    <aside className={cn(panelClass, 'sticky top-0 hidden h-screen w-60 shrink-0 bg-stone-100/60 md:flex')}>
      <Brand className="mb-4 px-2" />
      <NavContent {...props} />
    </aside>
  )
}

/** Below 768 px: a "Menu" button in the header opens the same content as a sheet from the left. */
export function PhoneMenu(props: NavProps) {
  const [open, setOpen] = useState(false)
  const hydrated = useHydrated()
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger
        disabled={!hydrated}
        aria-label="Menu"
        className="-ml-1.5 rounded-md p-1.5 text-stone-700 hover:bg-stone-100 md:hidden dark:text-stone-300 dark:hover:bg-stone-800"
      >
        <Menu className="size-5" aria-hidden />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-stone-950/40 md:hidden" />
        <Dialog.Content
          aria-describedby={undefined}
          className={cn(panelClass, 'fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] shadow-xl md:hidden')}
        >
          <div className="mb-4 flex items-center justify-between px-2">
            <Dialog.Title asChild>
              <div>
                <Brand />
              </div>
            </Dialog.Title>
            <Dialog.Close
              aria-label="Close menu"
              className="rounded p-1 text-stone-600 dark:text-stone-400 hover:text-stone-800"
            >
              <X className="size-5" aria-hidden />
            </Dialog.Close>
          </div>
          <NavContent {...props} onNavigate={() => setOpen(false)} inSheet />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
