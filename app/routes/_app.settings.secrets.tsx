import { KeyRound } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { toast } from 'sonner'
import { Button } from '#app/components/ui/button.tsx'
import { Badge, Card, EmptyState } from '#app/components/ui/card.tsx'
import { ConfirmDeleteDialog } from '#app/components/ui/confirm-delete-dialog.tsx'
import { Field, Input, inputClass } from '#app/components/ui/field.tsx'
import { PageError } from '#app/components/ui/page-error.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { fieldError, formLevelError, type ActionData } from '#app/lib/action-errors.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleSecretsAction, loadSecretsPage } from '#server/pages/settings-secrets.ts'
import type { Route } from './+types/_app.settings.secrets'

export const meta = () => [{ title: 'Secrets · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadSecretsPage(await requirePageCaller(request))
}

export async function action({ request }: Route.ActionArgs) {
  return handleSecretsAction(await requirePageCaller(request), request)
}

type Secret = Route.ComponentProps['loaderData']['secrets'][number]

/** Add or replace: the name and the value; the value goes in once and is never shown again. */
function SecretForm({ isAdmin, names }: { isAdmin: boolean; names: Set<string> }) {
  const fetcher = useFetcher<ActionData>()
  const form = useRef<HTMLFormElement>(null)
  const [scope, setScope] = useState<'personal' | 'org'>('personal')
  const [name, setName] = useState('')
  const busy = fetcher.state !== 'idle'
  const result = fetcher.data
  const [handled, setHandled] = useState<ActionData>()
  if (fetcher.state === 'idle' && result?.ok && result !== handled) {
    setHandled(result)
    setName('')
  }
  useEffect(() => {
    if (fetcher.state !== 'idle' || !result?.ok) return
    toast.success(`Saved ${(result.data as { secret: Secret }).secret.name}`)
    form.current?.reset()
  }, [fetcher.state, result])
  const replacing = names.has(`${scope}/${name.trim()}`)
  const other = formLevelError(result, ['name', 'value'])
  return (
    <fetcher.Form ref={form} method="post" className="space-y-4" autoComplete="off">
      <input type="hidden" name="intent" value="save" />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Name"
          error={fieldError(result, 'name')}
          hint="The variable commands see, e.g. GITHUB_TOKEN."
        >
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              name="name"
              required
              value={name}
              onChange={(e) => setName(e.target.value.toUpperCase())}
              placeholder="GITHUB_TOKEN"
              spellCheck={false}
              className="font-mono"
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
        <Field label="Belongs to">
          {({ id }) => (
            <select
              id={id}
              name="scope"
              value={scope}
              onChange={(e) => setScope(e.target.value as typeof scope)}
              className={inputClass}
            >
              <option value="personal">You (personal)</option>
              {isAdmin ? <option value="org">The organisation</option> : null}
            </select>
          )}
        </Field>
      </div>
      <Field
        label="Value"
        error={fieldError(result, 'value')}
        hint="Stored encrypted. It is never shown again, and commands' output shows it as ••••."
      >
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            name="value"
            type="password"
            required
            autoComplete="new-password"
            aria-describedby={describedBy}
            aria-invalid={invalid}
          />
        )}
      </Field>
      {other ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {other.message}
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" busy={busy} busyLabel="Saving…">
          {replacing ? 'Replace secret' : 'Add secret'}
        </Button>
      </div>
    </fetcher.Form>
  )
}

/** Where the focus goes when a deleted secret's row, and its Delete, are gone. */
const SECRETS_HEADING = 'secrets-heading'

function SecretRow({ secret, canChange }: { secret: Secret; canChange: boolean }) {
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 py-3" data-testid={`secret-${secret.name}`}>
      {/* A name may be 64 characters with no place to break: it breaks anywhere (decision 0370). */}
      <code className="min-w-0 font-mono text-sm font-medium [overflow-wrap:anywhere]">{secret.name}</code>
      <Badge tone={secret.scope === 'org' ? 'blue' : 'neutral'}>
        {secret.scope === 'org' ? 'Organisation' : 'Personal'}
      </Badge>
      <span className="text-sm text-stone-600 dark:text-stone-400">
        updated <RelativeTime value={secret.updatedAt} />
      </span>
      {canChange ? (
        <span className="ml-auto">
          <ConfirmDeleteDialog
            trigger={{ variant: 'ghost', label: `Delete ${secret.scope} secret ${secret.name}` }}
            title={`Delete ${secret.name}?`}
            description={`Commands in environments that list ${secret.name} stop getting it, and refuse to run until it is stored again.`}
            confirm="Delete"
            fields={{ scope: secret.scope, name: secret.name }}
            focusAfterRemoval={SECRETS_HEADING}
          />
        </span>
      ) : (
        <span className="ml-auto text-xs text-stone-600 dark:text-stone-400">
          read-only: admins change it
        </span>
      )}
    </li>
  )
}

export default function SecretsSettings({ loaderData }: Route.ComponentProps) {
  const { secrets, isAdmin } = loaderData
  const names = new Set(secrets.map((s) => `${s.scope}/${s.name}`))
  return (
    <div className="space-y-6">
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Values that commands in environments need (API tokens, passwords). An environment lists the names in
        its <code>secrets:</code>; the values are injected when a command runs and never written to files,
        logs or transcripts.
      </p>
      <Card className="p-5">
        <h2 className="mb-4 font-semibold">Add or replace a secret</h2>
        <SecretForm isAdmin={isAdmin} names={names} />
      </Card>
      <Card className="p-5">
        <h2 id={SECRETS_HEADING} tabIndex={-1} className="mb-2 font-semibold">
          Stored secrets
        </h2>
        {secrets.length ? (
          <ul aria-label="Stored secrets" className="divide-y divide-stone-200 dark:divide-stone-800">
            {secrets.map((s) => (
              <SecretRow
                key={`${s.scope}/${s.name}`}
                secret={s}
                canChange={s.scope === 'personal' || isAdmin}
              />
            ))}
          </ul>
        ) : (
          <EmptyState icon={<KeyRound className="size-8" />} title="No secrets yet">
            Add one above, then name it in an environment’s <code>secrets:</code> list.
          </EmptyState>
        )}
        {!isAdmin ? (
          <p className="mt-3 text-xs text-stone-600 dark:text-stone-400">
            Organisation secrets are listed for you to see; only admins and owners change them.
          </p>
        ) : null}
      </Card>
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <PageError error={error} what="page" />
}
