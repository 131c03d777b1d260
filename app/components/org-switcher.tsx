import { Check, ChevronsUpDown, Building2, Plus } from 'lucide-react'
import { DropdownMenu } from 'radix-ui'
import { lazy, Suspense, useRef, useState } from 'react'
import { useRevalidator } from 'react-router'
import { toast } from 'sonner'
import { authClient, refusalMessage } from '#app/lib/auth-client.ts'
import { useMenuOnFirstUse } from '#app/lib/use-menu-on-first-use.ts'

// Every page has the switcher, few people make an organisation: the dialog's code (its form, field
// and dialog parts) comes when it is first asked for, as the chat's does.
const NewOrganisationDialog = lazy(() =>
  import('#app/components/new-organisation-dialog.tsx').then((m) => ({ default: m.NewOrganisationDialog })),
)

type Org = { id: string; name: string; role: string }

const menuClass =
  'z-50 min-w-56 rounded-lg border border-stone-200 bg-white p-1 shadow-lg dark:border-stone-700 dark:bg-stone-900'
export const menuItemClass =
  'flex cursor-default items-center gap-2 rounded-md px-2 py-1.5 text-sm outline-none select-none data-[highlighted]:bg-stone-100 dark:data-[highlighted]:bg-stone-800'

/**
 * Lists the caller's organisations and switches the active one for this session; New organisation
 * makes one (a dialog) and switches to it.
 */
export function OrgSwitcher({ current, orgs, mountNow }: { current: Org; orgs: Org[]; mountNow?: boolean }) {
  const [creating, setCreating] = useState(false)
  // Mounted from the first time it is asked for on (so its closing gives the focus back), not before.
  const [asked, setAsked] = useState(false)
  const triggerRef = useRef<HTMLButtonElement>(null)
  const revalidator = useRevalidator()
  async function switchTo(org: Org) {
    if (org.id === current.id) return
    const result = await authClient.organization.setActive({ organizationId: org.id })
    if (result.error) {
      // Refused before better-auth runs (one the person has left since the page loaded: decision
      // 0532), in our error shape.
      toast.error(refusalMessage(result.error) ?? 'Could not switch organisation')
      // The list on screen is older than the refusal: read it again, so the organisation goes.
      void revalidator.revalidate()
      return
    }
    // Everything on screen belongs to the old organisation: load afresh.
    window.location.assign('/jobs')
  }
  // The radix menu mounts on first use (app/lib/use-menu-on-first-use.ts): it rendered on every page.
  const { used, standIn, openOnMount } = useMenuOnFirstUse(mountNow)
  const trigger = {
    className:
      'flex w-full items-center gap-2 rounded-lg border border-stone-200 bg-white px-2.5 py-2 text-left text-sm shadow-sm hover:bg-stone-50 dark:border-stone-800 dark:bg-stone-900 dark:hover:bg-stone-800',
    // Named by what it shows (and a word before and after for screen readers), so a person using
    // speech input can say what they see: "click Ana's workspace".
    children: (
      <>
        <Building2 className="size-4 shrink-0 text-stone-600 dark:text-stone-400" aria-hidden />
        <span className="min-w-0 flex-1">
          <span className="sr-only">Organisation: </span>
          <span className="block truncate font-medium">{current.name}</span>
          <span className="block text-xs text-stone-600 dark:text-stone-400 capitalize">
            {current.role}
            <span className="sr-only">. Switch organisation</span>
          </span>
        </span>
        <ChevronsUpDown className="size-4 shrink-0 text-stone-600 dark:text-stone-400" aria-hidden />
      </>
    ),
  }
  if (!used) return <button {...trigger} {...standIn} />
  return (
    <>
      <DropdownMenu.Root defaultOpen={openOnMount} modal={false}>
        <DropdownMenu.Trigger ref={triggerRef} {...trigger} />
        <DropdownMenu.Portal>
          <DropdownMenu.Content className={menuClass} align="start" sideOffset={6}>
            <DropdownMenu.Label className="px-2 py-1 text-xs font-medium text-stone-600 dark:text-stone-400">
              Organisations
            </DropdownMenu.Label>
            {orgs.map((org) => (
              <DropdownMenu.Item key={org.id} className={menuItemClass} onSelect={() => void switchTo(org)}>
                <span className="flex-1 truncate">{org.name}</span>
                <span className="text-xs text-stone-600 dark:text-stone-400 capitalize">{org.role}</span>
                {org.id === current.id ? (
                  <Check className="size-4 text-brand-600" aria-label="current" />
                ) : null}
              </DropdownMenu.Item>
            ))}
            <DropdownMenu.Separator className="my-1 h-px bg-stone-200 dark:bg-stone-700" />
            <DropdownMenu.Item
              className={menuItemClass}
              onSelect={() => {
                setAsked(true)
                setCreating(true)
              }}
            >
              <Plus className="size-4 text-stone-600 dark:text-stone-400" aria-hidden /> New organisation
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {asked ? (
        <Suspense fallback={null}>
          <NewOrganisationDialog open={creating} onOpenChange={setCreating} returnFocusTo={triggerRef} />
        </Suspense>
      ) : null}
    </>
  )
}

export function UserMenu({ name, email, mountNow }: { name: string; email: string; mountNow?: boolean }) {
  async function signOut() {
    await authClient.signOut()
    window.location.assign('/sign-in')
  }
  const initials = name
    .split(/\s+/)
    .map((part) => part[0])
    .join('')
    .slice(0, 2)
    .toUpperCase()
  const { used, standIn, openOnMount } = useMenuOnFirstUse(mountNow)
  const trigger = {
    className:
      'flex w-full items-center gap-2 rounded-lg px-2 py-2 text-left text-sm hover:bg-stone-100 dark:hover:bg-stone-800',
    children: (
      <>
        <span
          aria-hidden
          className="flex size-7 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-900 dark:bg-brand-900 dark:text-brand-100"
        >
          {initials || '?'}
        </span>
        <span className="min-w-0 flex-1">
          <span className="sr-only">Account: </span>
          <span className="block truncate font-medium">{name}</span>
          <span className="block truncate text-xs text-stone-600 dark:text-stone-400">{email}</span>
        </span>
      </>
    ),
  }
  if (!used) return <button {...trigger} {...standIn} />
  return (
    <DropdownMenu.Root defaultOpen={openOnMount} modal={false}>
      <DropdownMenu.Trigger {...trigger} />
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={menuClass} align="start" side="top" sideOffset={6}>
          <DropdownMenu.Item
            className={menuItemClass}
            onSelect={() => window.location.assign('/settings/profile')}
          >
            Profile and timezone
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-stone-200 dark:bg-stone-700" />
          <DropdownMenu.Item className={menuItemClass} onSelect={() => void signOut()}>
            Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
