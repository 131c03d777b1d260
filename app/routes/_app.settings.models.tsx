import { KeyRound } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { useFetcher } from 'react-router'
import { toast } from 'sonner'
import { Button } from '#app/components/ui/button.tsx'
import { Badge, Card } from '#app/components/ui/card.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { fieldError, formLevelError } from '#app/lib/action-errors.ts'
import { handleModelsAction, loadModelsPage } from '#server/pages/settings-models.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import type { Route } from './+types/_app.settings.models'

export const meta = () => [{ title: 'Models · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadModelsPage(await requirePageCaller(request))
}

export async function action({ request }: Route.ActionArgs) {
  return handleModelsAction(await requirePageCaller(request), request)
}

type Data = Route.ComponentProps['loaderData']

type Source = Data['sources']['chat']
type StoredKey = Data['keys'][number]

/** "2026-12-07 14:03 UTC": when a refusal was recorded, the same for every reader. */
const refusedWhen = (at: string) => `${at.slice(0, 16).replace('T', ' ')} UTC`

function sourceText(source: Source, own: string, refused: boolean, deploymentRefused: boolean): string {
  const paused = refused ? ', which the provider refused: calls fail until it is saved again' : ''
  if (source === 'personal') return `${own}${paused}`
  if (source === 'org') return `the organisation's key${paused}`
  if (source === 'deployment') {
    return `the deployment's key (from the server's .env)${deploymentRefused ? ', which the provider refused (below)' : ''}`
  }
  if (source === 'none') return 'no key (the server needs none)'
  return 'none: calls fail until a key is added'
}

function KeyForm({
  scope,
  provider,
  stored,
}: {
  scope: 'personal' | 'org'
  provider: string
  stored?: StoredKey
}) {
  const save = useFetcher<typeof action>()
  const remove = useFetcher<typeof action>()
  const form = useRef<HTMLFormElement>(null)
  const label = scope === 'personal' ? 'Your key' : 'Organisation key'
  useEffect(() => {
    if (save.state !== 'idle' || !save.data) return
    if (save.data.ok) {
      toast.success(`${label} saved`)
      form.current?.reset()
    }
  }, [save.state, save.data, label])
  useEffect(() => {
    if (remove.state === 'idle' && remove.data) {
      if (remove.data.ok) toast.success(`${label} removed`)
      else toast.error(remove.data.error.message)
    }
  }, [remove.state, remove.data, label])
  const error = fieldError(save.data, 'apiKey') ?? formLevelError(save.data, ['apiKey'])?.message ?? null
  const check = save.state === 'idle' && save.data?.ok ? save.data.data?.check : undefined
  return (
    <div className="space-y-3" data-testid={`key-${scope}`}>
      <p className="text-sm">
        {label}:{' '}
        {stored ? (
          <Badge tone={stored.refused ? 'red' : 'green'} data-testid={`stored-${scope}`}>
            {stored.masked}
            {stored.refused ? ' · refused' : ''}
          </Badge>
        ) : (
          <span className="text-stone-600 dark:text-stone-400">none stored</span>
        )}
      </p>
      {stored?.refused ? <RefusedNote refused={stored.refused} scope={scope} /> : null}
      <save.Form ref={form} method="post" className="flex flex-wrap items-end gap-3" autoComplete="off">
        <input type="hidden" name="intent" value="save-key" />
        <input type="hidden" name="scope" value={scope} />
        <input type="hidden" name="provider" value={provider} />
        <div className="min-w-72 flex-1">
          <Field
            label={stored ? `Replace ${label.toLowerCase()}` : `Add ${label.toLowerCase()}`}
            error={error}
            hint="Write-only: stored encrypted, shown only as its last 4 characters."
          >
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                name="apiKey"
                type="password"
                required
                autoComplete="off"
                spellCheck={false}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                placeholder={provider === 'anthropic' ? 'sk-ant-…' : 'API key'}
              />
            )}
          </Field>
        </div>
        <Button type="submit" busy={save.state !== 'idle'} busyLabel="Saving…">
          Save key
        </Button>
      </save.Form>
      {check && !check.ok ? <UncheckedNote reason={check.reason} scope={scope} /> : null}
      {stored ? (
        <remove.Form method="post">
          <input type="hidden" name="intent" value="remove-key" />
          <input type="hidden" name="scope" value={scope} />
          <input type="hidden" name="provider" value={provider} />
          <Button
            type="submit"
            variant="ghost"
            size="sm"
            busy={remove.state !== 'idle'}
            busyLabel="Removing…"
          >
            Remove {label.toLowerCase()}
          </Button>
        </remove.Form>
      ) : null}
    </div>
  )
}

/**
 * The deployment's key refused on this instance's last call with it. It is not paused (only the
 * operator can replace it), so this says what fails and who can mend it.
 */
function DeploymentRefusedNote({
  refused,
  providerName,
  canManageOrg,
}: {
  refused: NonNullable<Data['deploymentRefused']>
  providerName: string
  canManageOrg: boolean
}) {
  return (
    <p
      role="alert"
      data-testid="deployment-key-refused"
      className="mt-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      The provider refused the deployment&apos;s {providerName} key at {refusedWhen(refused.at)}
      {refused.reason ? ` (${refused.reason})` : ''}: chats and runs that use it fail.{' '}
      {canManageOrg ? (
        <>
          Whoever runs this server replaces <code>{refused.variable}</code> in its .env and restarts it;
          meanwhile a key saved below (yours, or the organisation&apos;s for shared jobs) is used instead.
        </>
      ) : (
        <>Save a key of your own below to use it instead, or tell whoever runs this server.</>
      )}
    </p>
  )
}

/** A key saved without the provider's word on it (decision 0514): why, and what happens if it is wrong. */
function UncheckedNote({ reason, scope }: { reason: string; scope: string }) {
  return (
    <p
      role="status"
      data-testid={`unchecked-${scope}`}
      className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
    >
      The key was saved, but it could not be checked with the provider ({reason}). If the provider refuses it,
      the first chat or run on it says so, and it is not used until saved again.
    </p>
  )
}

/** Why a stored key is not used, and the one way back (decision 0505). */
function RefusedNote({ refused, scope }: { refused: NonNullable<StoredKey['refused']>; scope: string }) {
  return (
    <p
      role="alert"
      data-testid={`refused-${scope}`}
      className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      The provider refused this key at {refusedWhen(refused.at)}
      {refused.reason ? ` (${refused.reason})` : ''}. Nothing uses it until it is saved again: save the same
      key once it works, or a new one.
    </p>
  )
}

export default function Models({ loaderData }: Route.ComponentProps) {
  const { model, sources, keys, canManageOrg, orgName, deploymentRefused } = loaderData
  const { providerName } = model
  const stored = (scope: 'personal' | 'org') =>
    keys.find((k) => k.scope === scope && k.provider === model.provider)
  const refused = (scope: 'personal' | 'org') => Boolean(stored(scope)?.refused)
  const orgKey = stored('org')
  return (
    <div className="space-y-6">
      <Card className="p-6">
        <h2 className="font-semibold">Model in use</h2>
        <dl className="mt-3 grid gap-x-4 gap-y-2 text-sm [overflow-wrap:anywhere] sm:grid-cols-[10rem_1fr]">
          <dt className="text-stone-600 dark:text-stone-400">Model</dt>
          <dd data-testid="model-in-use">
            <code>
              {model.provider}:{model.modelId}
            </code>
          </dd>
          <dt className="text-stone-600 dark:text-stone-400">Served by</dt>
          <dd>{model.server}</dd>
          <dt className="text-stone-600 dark:text-stone-400">Price estimate</dt>
          <dd>{model.price ?? 'unknown for this model: runs show no cost'}</dd>
          <dt className="text-stone-600 dark:text-stone-400">Your chats use</dt>
          <dd data-testid="source-chat">
            {sourceText(sources.chat, 'your own key', refused('personal'), Boolean(deploymentRefused))}
          </dd>
          <dt className="text-stone-600 dark:text-stone-400">Your jobs use</dt>
          <dd>
            {sourceText(sources.creatorRuns, 'your own key', refused('personal'), Boolean(deploymentRefused))}
          </dd>
          <dt className="text-stone-600 dark:text-stone-400">Shared-key jobs use</dt>
          <dd>
            {sourceText(
              sources.sharedRuns,
              "the organisation's key",
              refused('org'),
              Boolean(deploymentRefused),
            )}
          </dd>
        </dl>
        {deploymentRefused ? (
          <DeploymentRefusedNote
            refused={deploymentRefused}
            providerName={providerName}
            canManageOrg={canManageOrg}
          />
        ) : null}
        {model.retired ? (
          <p
            role="alert"
            data-testid="model-retired"
            className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
          >
            {model.retired}
          </p>
        ) : null}
        <p className="mt-3 text-xs text-stone-600 dark:text-stone-400">
          {canManageOrg ? (
            <>
              The model is set by <code>AGENT_MODEL</code> in the server&apos;s .env.{' '}
            </>
          ) : (
            <>
              The model is chosen by whoever runs this Clockwork server, for everyone on it: ask an admin of{' '}
              {orgName} if you need a different one.{' '}
            </>
          )}
          Chats and your jobs use your own key, else the deployment&apos;s; jobs set to run as “shared” use{' '}
          {orgName}&apos;s key, else the deployment&apos;s.
        </p>
      </Card>
      <Card className="space-y-4 p-6">
        <h2 className="flex items-center gap-2 font-semibold">
          <KeyRound className="size-4" aria-hidden /> Your {providerName} key
        </h2>
        <KeyForm scope="personal" provider={model.provider} stored={stored('personal')} />
      </Card>
      <Card className="space-y-4 p-6">
        <h2 className="flex items-center gap-2 font-semibold">
          <KeyRound className="size-4" aria-hidden /> {orgName}&apos;s {providerName} key
        </h2>
        {canManageOrg ? (
          <KeyForm scope="org" provider={model.provider} stored={orgKey} />
        ) : (
          <p className="text-sm text-stone-600 dark:text-stone-400">
            {orgKey
              ? `Stored: ${orgKey.masked}${orgKey.refused ? ', refused by the provider: it is not used until an admin saves it again' : ''}. `
              : 'None stored. '}
            Only admins and owners can change it.
          </p>
        )}
      </Card>
    </div>
  )
}
