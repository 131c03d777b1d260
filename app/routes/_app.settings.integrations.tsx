import { Plug, Plus } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { useFetcher } from 'react-router'
import { toast } from 'sonner'
import { Button } from '#app/components/ui/button.tsx'
import { Badge, Card, EmptyState } from '#app/components/ui/card.tsx'
import { Field, Input, inputClass } from '#app/components/ui/field.tsx'
import { PageError } from '#app/components/ui/page-error.tsx'
import { fieldError, formLevelError } from '#app/lib/action-errors.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleIntegrationsAction, loadIntegrationsPage } from '#server/pages/settings-integrations.ts'
import type { Route } from './+types/_app.settings.integrations'

export const meta = () => [{ title: 'Integrations · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadIntegrationsPage(await requirePageCaller(request))
}

export async function action({ request }: Route.ActionArgs) {
  return handleIntegrationsAction(await requirePageCaller(request), request)
}

type Server = Route.ComponentProps['loaderData']['servers'][number]

function StatusBadge({ status }: { status: Server['status'] }) {
  if (status.state === 'ok')
    return (
      <Badge tone="green" data-testid="mcp-status">
        Connected · {status.tools} {status.tools === 1 ? 'tool' : 'tools'}
      </Badge>
    )
  if (status.state === 'error')
    return (
      <Badge tone="red" data-testid="mcp-status" title={status.message}>
        Failing
      </Badge>
    )
  return (
    <Badge tone="neutral" data-testid="mcp-status">
      Not checked yet
    </Badge>
  )
}

function ServerRow({ server }: { server: Server }) {
  const test = useFetcher<typeof action>()
  const remove = useFetcher<typeof action>()
  const hydrated = useHydrated()
  const status =
    test.data?.ok && test.data.intent === 'test' && test.data.data ? test.data.data.status : server.status
  return (
    <li className="py-4" data-testid="mcp-server" data-name={server.name}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium">
            {server.name}{' '}
            <Badge tone={server.scope === 'org' ? 'brand' : 'neutral'}>
              {server.scope === 'org' ? 'Organisation' : 'Personal'}
            </Badge>{' '}
            <StatusBadge status={status} />
          </p>
          {/* Whole, wrapped anywhere: the URL is what tells two servers apart, so none of it is cut off. */}
          <p className="mt-0.5 font-mono text-xs text-stone-600 dark:text-stone-400 [overflow-wrap:anywhere]">
            {server.url}
          </p>
          {status.state === 'error' ? (
            <p className="mt-1 text-sm text-red-700 dark:text-red-400" role="status">
              {status.message}
            </p>
          ) : null}
        </div>
        <div className="flex gap-2">
          <test.Form method="post">
            <input type="hidden" name="intent" value="test" />
            <input type="hidden" name="id" value={server.id} />
            <Button
              type="submit"
              variant="secondary"
              size="sm"
              disabled={!hydrated}
              busy={test.state !== 'idle'}
              busyLabel="Testing…"
            >
              Test connection
            </Button>
          </test.Form>
          {server.canEdit ? (
            <remove.Form method="post">
              <input type="hidden" name="intent" value="remove" />
              <input type="hidden" name="id" value={server.id} />
              <Button
                type="submit"
                variant="secondary"
                size="sm"
                disabled={!hydrated}
                busy={remove.state !== 'idle'}
                busyLabel="Removing…"
              >
                Remove
              </Button>
            </remove.Form>
          ) : null}
        </div>
      </div>
    </li>
  )
}

const SHOWN = ['name', 'url', 'scope', 'headers']

function AddServer({ isAdmin }: { isAdmin: boolean }) {
  const fetcher = useFetcher<typeof action>()
  const hydrated = useHydrated()
  const form = useRef<HTMLFormElement>(null)
  const result = fetcher.data?.intent === 'add' ? fetcher.data : undefined
  useEffect(() => {
    if (fetcher.state !== 'idle' || !result?.ok) return
    toast.success('MCP server added')
    form.current?.reset()
  }, [fetcher.state, result])
  const general = formLevelError(result, SHOWN)
  return (
    <Card className="p-6">
      <h2 className="font-semibold">Add an MCP server</h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Streamable HTTP endpoint. Its tools reach the agent as <code>name__tool</code>. Keep tokens in
        Settings → Secrets and refer to them in headers.
      </p>
      <fetcher.Form method="post" ref={form} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="add" />
        {/* Name and URL abreast from a 48rem column: in a narrower one (beside the open chat) the
            URL got 230 px and an ordinary address did not show whole (decision 0529). */}
        <div className="grid gap-4 @3xl:grid-cols-2">
          <Field label="Name" error={fieldError(result, 'name')} hint="e.g. docs">
            {(ids) => (
              <Input
                id={ids.id}
                name="name"
                required
                aria-invalid={ids.invalid}
                aria-describedby={ids.describedBy}
              />
            )}
          </Field>
          <Field label="URL" error={fieldError(result, 'url')}>
            {(ids) => (
              <Input
                id={ids.id}
                name="url"
                required
                placeholder="https://mcp.example.com/mcp"
                aria-invalid={ids.invalid}
                aria-describedby={ids.describedBy}
              />
            )}
          </Field>
        </div>
        <Field
          label="Headers (JSON, optional)"
          error={fieldError(result, 'headers')}
          hint={
            <>
              e.g. <code>{'{"Authorization": {"bearer": "DOCS_TOKEN"}}'}</code> sends <code>Bearer</code> and
              your stored secret DOCS_TOKEN
            </>
          }
        >
          {(ids) => (
            <textarea
              id={ids.id}
              name="headers"
              rows={2}
              className={inputClass + ' font-mono'}
              aria-invalid={ids.invalid}
              aria-describedby={ids.describedBy}
            />
          )}
        </Field>
        {isAdmin ? (
          <Field label="For" error={fieldError(result, 'scope')}>
            {(ids) => (
              <select id={ids.id} name="scope" className={inputClass} defaultValue="personal">
                <option value="personal">Only me</option>
                <option value="org">Everyone in the organisation</option>
              </select>
            )}
          </Field>
        ) : null}
        {general ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {general.message}
          </p>
        ) : null}
        <Button type="submit" disabled={!hydrated} busy={fetcher.state !== 'idle'} busyLabel="Adding…">
          <Plus className="size-4" aria-hidden /> Add server
        </Button>
      </fetcher.Form>
    </Card>
  )
}

export default function IntegrationsSettings({ loaderData }: Route.ComponentProps) {
  const { servers, isAdmin } = loaderData
  return (
    <div className="space-y-6">
      <Card className="p-6">
        <h2 className="font-semibold">MCP servers</h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Your own servers and your organisation&apos;s. The agent uses their tools in chat and in job runs (a
          job can limit them with <code>mcp</code>).
        </p>
        {servers.length ? (
          <ul className="mt-2 divide-y divide-stone-200 dark:divide-stone-800">
            {servers.map((server) => (
              <ServerRow key={server.id} server={server} />
            ))}
          </ul>
        ) : (
          <EmptyState icon={<Plug className="size-6" aria-hidden />} title="No MCP servers yet">
            Add one below.
          </EmptyState>
        )}
      </Card>
      <AddServer isAdmin={isAdmin} />
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <PageError error={error} what="integrations" />
}
