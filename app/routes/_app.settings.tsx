import { NavLink, Outlet } from 'react-router'
import { PageHeader } from '#app/components/ui/card.tsx'
import { cn } from '#app/lib/cn.ts'

export const meta = () => [{ title: 'Settings · Clockwork' }]

const tabs = [
  { to: '/settings/organisation', label: 'Organisation' },
  { to: '/settings/members', label: 'Members' },
  { to: '/settings/profile', label: 'Profile' },
  { to: '/settings/models', label: 'Models' },
  { to: '/settings/usage', label: 'Usage' },
  { to: '/settings/machines', label: 'Machines' },
  { to: '/settings/access-tokens', label: 'Access tokens' },
  { to: '/settings/secrets', label: 'Secrets' },
  { to: '/settings/agent', label: 'Agent' },
  { to: '/settings/delivery', label: 'Delivery' },
  { to: '/settings/integrations', label: 'Integrations' },
]

export default function SettingsLayout() {
  return (
    <>
      <PageHeader title="Settings" description="Your organisation, its people, and your own preferences." />
      <nav
        aria-label="Settings"
        className="mb-6 flex flex-wrap gap-x-1 border-b border-stone-200 dark:border-stone-800"
      >
        {tabs.map((tab) => (
          <NavLink
            key={tab.to}
            to={tab.to}
            className={({ isActive }) =>
              cn(
                '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
                isActive
                  ? 'border-brand-600 text-stone-900 dark:text-white'
                  : 'border-transparent text-stone-600 dark:text-stone-400 hover:text-stone-800 dark:hover:text-stone-200',
              )
            }
          >
            {tab.label}
          </NavLink>
        ))}
      </nav>
      {/* One width for every settings page. */}
      <div className="max-w-3xl">
        <Outlet />
      </div>
    </>
  )
}
