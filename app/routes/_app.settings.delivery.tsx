import { Mail, Webhook } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Badge, Card, EmptyState } from '#app/components/ui/card.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleDeliveryAction, loadDeliveryPage } from '#server/pages/settings-delivery.ts'
import type { Route } from './+types/_app.settings.delivery'
import { fieldError, formLevelError } from '#app/lib/action-errors.ts'
import { useFocusAfterRemoval } from '#app/lib/use-focus-after-removal.ts'

export const meta = () => [{ title: 'Delivery · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadDeliveryPage(await requirePageCaller(request))
}

export async function action({ request }: Route.ActionArgs) {
  return handleDeliveryAction(await requirePageCaller(request), request)
}

const select =
  'block w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-sm dark:border-stone-700 dark:bg-stone-900'

/** `endpointIds`: the endpoints there are now; a signing secret is shown only while its endpoint is. */
function AddEndpoint({ endpointIds }: { endpointIds: ReadonlySet<string> }) {
  const fetcher = useFetcher<typeof action>()
  const result = fetcher.data?.intent === 'create-endpoint' ? fetcher.data : undefined
  // Each field's problem next to it (the URL's includes an address the outbound rule refuses);
  // anything else (the kind) under the URL.
  const urlError = fieldError(result, 'url') ?? formLevelError(result, ['name', 'url'])?.message ?? null
  // Shown once, and only while its endpoint exists: removed, the secret signs nothing.
  const secret = result?.ok && endpointIds.has(result.data?.id ?? '') ? result.data?.signingSecret : null
  const added = result?.ok ? result.data?.name : null
  const form = useRef<HTMLFormElement>(null)
  // Added: the form is empty for the next endpoint, as the other settings forms are after theirs.
  useEffect(() => {
    if (added) form.current?.reset()
  }, [result, added])
  return (
    <Card className="p-5">
      <h2 className="mb-3 font-semibold">Add an endpoint</h2>
      {/* Kind and name abreast from a 48rem column: in a narrower one (beside the open chat) the
          kind's "Webhook (Standard Webhooks)", which needs about 310 px, was cut (decision 0529). */}
      <fetcher.Form method="post" ref={form} className="grid gap-3 @3xl:grid-cols-2">
        <input type="hidden" name="intent" value="create-endpoint" />
        <Field label="Kind">
          {({ id }) => (
            <select id={id} name="kind" className={select} defaultValue="webhook">
              <option value="webhook">Webhook (Standard Webhooks, signed)</option>
              <option value="slack">Slack incoming webhook</option>
            </select>
          )}
        </Field>
        <Field label="Name" error={fieldError(result, 'name')} hint="Jobs use it: webhook:<name>">
          {(ids) => (
            <Input id={ids.id} name="name" required placeholder="ops-feed" aria-invalid={ids.invalid} />
          )}
        </Field>
        <div className="@3xl:col-span-2">
          <Field label="URL" error={urlError} hint="Stored encrypted">
            {(ids) => (
              <Input
                id={ids.id}
                name="url"
                type="url"
                required
                placeholder="https://"
                aria-invalid={ids.invalid}
              />
            )}
          </Field>
        </div>
        <div>
          <Button type="submit" busy={fetcher.state !== 'idle'} busyLabel="Adding…">
            Add endpoint
          </Button>
        </div>
      </fetcher.Form>
      {secret ? (
        <div className="mt-4 space-y-1 text-sm [overflow-wrap:anywhere]" data-testid="signing-secret">
          <p className="font-medium">
            Signing secret for {result?.ok ? result.data?.name : ''}: shown this once.
          </p>
          {/* Wrapped, not scrolled: all of it in view to copy (a soft wrap adds nothing to the copy). */}
          <pre className="rounded bg-stone-100 p-2 text-xs break-all whitespace-pre-wrap dark:bg-stone-800">
            {secret}
          </pre>
          <Button variant="secondary" size="sm" onClick={() => void navigator.clipboard.writeText(secret)}>
            Copy secret
          </Button>
        </div>
      ) : null}
    </Card>
  )
}

/** Where the focus goes when the endpoint whose Remove had it is gone. */
const ENDPOINTS_HEADING = 'endpoints-heading'

/**
 * One endpoint's Remove, with a fetcher of its own: it says "Removing…" and takes no second click
 * while its request is out (one fetcher for every row could not say which row is going).
 */
function RemoveEndpoint({ id, label }: { id: string; label: string }) {
  const fetcher = useFetcher<typeof action>()
  const busy = fetcher.state !== 'idle'
  const remove = useFocusAfterRemoval<HTMLFormElement>(ENDPOINTS_HEADING)
  return (
    <fetcher.Form method="post" ref={remove}>
      <input type="hidden" name="intent" value="delete-endpoint" />
      <input type="hidden" name="id" value={id} />
      <Button
        type="submit"
        variant="ghost"
        size="sm"
        busy={busy}
        busyLabel="Removing…"
        aria-label={`Remove ${label}`}
      >
        Remove
      </Button>
    </fetcher.Form>
  )
}

export default function DeliverySettings({ loaderData }: Route.ComponentProps) {
  const { endpoints, canEdit, emailEnabled } = loaderData
  return (
    <div className="space-y-6">
      <Card className="flex items-start gap-3 p-4 text-sm">
        <Mail className="mt-0.5 size-4 shrink-0" aria-hidden />
        {emailEnabled ? (
          <p>Email is on: run results, alerts, invitations and password resets are sent by mail.</p>
        ) : (
          <p>
            {/* The server setting is named only to admins and owners: a member can do nothing with it. */}
            Email is off
            {canEdit ? (
              <>
                : this server has no <code>SMTP_URL</code>
              </>
            ) : (
              ' on this server'
            )}
            . Alerts show in the app only, invitations are shared as links, <code>email:</code> targets fail,
            and password reset is unavailable.
          </p>
        )}
      </Card>
      <Card className="p-5">
        <h2 id={ENDPOINTS_HEADING} tabIndex={-1} className="mb-2 font-semibold">
          Endpoints
        </h2>
        {endpoints.length === 0 ? (
          <EmptyState icon={<Webhook className="size-8" />} title="No endpoints yet">
            Admins register webhook and Slack URLs here; a job sends its results to them with{' '}
            <code>notify: {'{ onSuccess: [webhook:name] }'}</code>.
          </EmptyState>
        ) : (
          <ul className="divide-y divide-stone-200 dark:divide-stone-800">
            {endpoints.map((e) => (
              <li key={e.id} className="flex items-center gap-3 py-3 text-sm">
                <Badge tone={e.kind === 'slack' ? 'blue' : 'brand'}>{e.kind}</Badge>
                {/* A name may be 63 characters and a host longer: both break anywhere, and the
                  host goes under the name when the two do not fit on one line (a phone, the
                  open chat's column, a long name), so Remove stays on the screen and the host is
                  not squeezed beside the name, broken mid-word (decision 0529). */}
                <div className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-3 [overflow-wrap:anywhere]">
                  <span className="block font-mono">
                    {e.kind}:{e.name}
                  </span>
                  <span className="block text-stone-600 dark:text-stone-400">{e.host}</span>
                </div>
                {canEdit ? <RemoveEndpoint id={e.id} label={`${e.kind}:${e.name}`} /> : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
      {canEdit ? (
        <AddEndpoint endpointIds={new Set(endpoints.map((e) => e.id))} />
      ) : (
        <p className="text-sm text-stone-600 dark:text-stone-400">Only admins and owners add endpoints.</p>
      )}
    </div>
  )
}
