import { Trash2 } from 'lucide-react'
import { AlertDialog } from 'radix-ui'
import { useState } from 'react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Badge, Card } from '#app/components/ui/card.tsx'
import { ConfirmText } from '#app/components/ui/confirm-delete-dialog.tsx'
import { dialogOverlayClass, dialogPanelClass } from '#app/components/ui/dialog-frame.ts'
import { Field, Input } from '#app/components/ui/field.tsx'
import { PageError } from '#app/components/ui/page-error.tsx'
import { fieldError, formLevelError, type ActionData } from '#app/lib/action-errors.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import { useActionToast } from '#app/lib/use-action-toast.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleOrganisationAction, loadOrganisationPage } from '#server/pages/settings-organisation.ts'
import type { Route } from './+types/_app.settings.organisation'

export const meta = () => [{ title: 'Organisation · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadOrganisationPage(await requirePageCaller(request))
}

export async function action({ request }: Route.ActionArgs) {
  return handleOrganisationAction(await requirePageCaller(request), request)
}

type LoaderData = Route.ComponentProps['loaderData']

/** The name: a form for owners and admins; for a member, read-only with whom to ask. */
function NameCard({ organisation, me, managers }: LoaderData) {
  const fetcher = useFetcher<ActionData>()
  const hydrated = useHydrated()
  useActionToast(fetcher, 'rename', () => 'Organisation renamed')
  const result = fetcher.data?.intent === 'rename' ? fetcher.data : undefined
  const general = formLevelError(result, ['name'])
  const askWhom = managers.map((m) => `${m.name} (${m.role})`).join(', ')
  return (
    <Card className="p-6">
      <h2 className="font-semibold">Organisation</h2>
      {me.canRename ? (
        <fetcher.Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="rename" />
          <fieldset disabled={!hydrated} className="flex flex-wrap items-end gap-3">
            <div className="min-w-64 flex-1">
              <Field label="Name" error={fieldError(result, 'name')}>
                {({ id, describedBy, invalid }) => (
                  <Input
                    // A new name from the server (saved here or elsewhere) resets the field.
                    key={organisation.name}
                    id={id}
                    name="name"
                    required
                    maxLength={100}
                    autoComplete="off"
                    defaultValue={organisation.name}
                    aria-invalid={invalid}
                    aria-describedby={describedBy}
                  />
                )}
              </Field>
            </div>
            <Button type="submit" busy={fetcher.state !== 'idle'} busyLabel="Saving…">
              Rename
            </Button>
          </fieldset>
          {general ? (
            <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
              {general.message}
            </p>
          ) : null}
        </fetcher.Form>
      ) : null}
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        {me.canRename ? null : (
          <>
            <dt className="text-stone-600 dark:text-stone-400">Name</dt>
            <dd className="font-medium [overflow-wrap:anywhere]" data-testid="organisation-name">
              {organisation.name}
            </dd>
          </>
        )}
        <dt className="text-stone-600 dark:text-stone-400">Slug</dt>
        <dd className="font-mono [overflow-wrap:anywhere]" data-testid="organisation-slug">
          {organisation.slug}
        </dd>
        <dt className="text-stone-600 dark:text-stone-400">Your role</dt>
        <dd>
          <Badge tone={me.role === 'member' ? 'neutral' : 'brand'} data-testid="organisation-role">
            {me.role}
          </Badge>
        </dd>
      </dl>
      {me.canRename ? null : (
        <p className="mt-4 text-sm text-stone-600 dark:text-stone-400" data-testid="rename-ask">
          Only owners and admins can rename it{askWhom ? `: ask ${askWhom}.` : '.'}
        </p>
      )}
    </Card>
  )
}

/**
 * The owner's Delete organisation: a dialog that says what goes and asks for the name typed out
 * before its button does anything. A refusal (their only organisation) shows in the dialog; on
 * success the action loads another organisation's jobs page.
 */
function DangerZone({ name }: { name: string }) {
  const hydrated = useHydrated()
  return (
    <section aria-labelledby="danger-heading">
      <Card className="border-red-300 p-6 dark:border-red-900">
        <h2 id="danger-heading" className="font-semibold text-red-700 dark:text-red-400">
          Danger zone
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Deleting the organisation removes everything in it for everyone, and cannot be undone.
        </p>
        <AlertDialog.Root>
          <AlertDialog.Trigger asChild>
            <Button variant="danger" className="mt-4" disabled={!hydrated}>
              <Trash2 className="size-4" aria-hidden /> Delete organisation
            </Button>
          </AlertDialog.Trigger>
          <AlertDialog.Portal>
            <AlertDialog.Overlay className={dialogOverlayClass} />
            <AlertDialog.Content className={dialogPanelClass}>
              <DeleteForm name={name} />
            </AlertDialog.Content>
          </AlertDialog.Portal>
        </AlertDialog.Root>
      </Card>
    </section>
  )
}

/**
 * The delete dialog's content, mounted while it is open: each opening starts with nothing typed
 * and without the last attempt's refusal.
 */
function DeleteForm({ name }: { name: string }) {
  const fetcher = useFetcher<ActionData>()
  const [typed, setTyped] = useState('')
  const result = fetcher.data?.intent === 'delete' ? fetcher.data : undefined
  const confirmError = fieldError(result, 'confirmName')
  const refusal = formLevelError(result, ['confirmName'])
  const matches = typed.trim() === name.trim()
  return (
    <>
      <ConfirmText
        title={`Delete ${name}?`}
        description={
          <>
            Its jobs and their runs and history, its environments and their files, its workspace files,
            skills, secrets, settings and pending invitations are deleted, and what runs in it now stops.
            Every member loses access to it; their accounts and their other organisations stay. What its runs
            spent stays counted.
          </>
        }
        error={refusal?.message ?? null}
      />
      <fetcher.Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="delete" />
        <Field label={`Type ${name} to confirm`} error={confirmError}>
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              name="confirmName"
              autoComplete="off"
              spellCheck={false}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              aria-invalid={invalid}
              aria-describedby={describedBy}
            />
          )}
        </Field>
        <div className="mt-6 flex justify-end gap-3">
          <AlertDialog.Cancel asChild>
            <Button variant="secondary">Keep it</Button>
          </AlertDialog.Cancel>
          <Button
            type="submit"
            variant="danger"
            unavailable={!matches}
            busy={fetcher.state !== 'idle'}
            busyLabel="Deleting…"
          >
            Delete organisation
          </Button>
        </div>
      </fetcher.Form>
    </>
  )
}

export default function OrganisationSettings({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <NameCard {...loaderData} />
      {loaderData.me.canDelete ? <DangerZone name={loaderData.organisation.name} /> : null}
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <PageError error={error} what="organisation" />
}
