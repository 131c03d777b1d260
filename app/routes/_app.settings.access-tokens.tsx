import { KeyRound } from 'lucide-react'
import { Fragment, useEffect, useRef } from 'react'
import { useFetcher } from 'react-router'
import { TokenRow } from '#app/components/settings/token-row.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Badge, Card, EmptyState } from '#app/components/ui/card.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { fieldError, formLevelError } from '#app/lib/action-errors.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleAccessTokensAction, loadAccessTokensPage } from '#server/pages/settings-access-tokens.ts'
import type { Route } from './+types/_app.settings.access-tokens'

export const meta = () => [{ title: 'Access tokens · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadAccessTokensPage(await requirePageCaller(request), request)
}

export async function action({ request }: Route.ActionArgs) {
  return handleAccessTokensAction(await requirePageCaller(request), request)
}

type Data = Route.ComponentProps['loaderData']

const SCOPES = [
  { value: 'jobs:read', label: 'Read jobs', hint: 'list and read jobs and job files, preview schedules' },
  { value: 'jobs:write', label: 'Change jobs', hint: 'create, update, pause and delete jobs' },
  { value: 'runs:read', label: 'Read runs', hint: 'run history and transcripts' },
  { value: 'runs:write', label: 'Run jobs', hint: 'run a job now' },
] as const

const claudeCommand = (endpoint: string, token: string) =>
  `claude mcp add --transport http clockwork ${endpoint} --header "Authorization: Bearer ${token}"`

function CreateToken({ endpoint }: { endpoint: string }) {
  const fetcher = useFetcher<typeof action>()
  const hydrated = useHydrated()
  const form = useRef<HTMLFormElement>(null)
  const data = fetcher.data?.intent === 'create' ? fetcher.data : undefined
  const token = data?.ok ? data.data?.token : null
  const nameError = fieldError(data, 'name')
  const scopesError = fieldError(data, 'scopes')
  const general = formLevelError(data, ['name', 'scopes'])
  useEffect(() => {
    if (token) form.current?.reset()
  }, [token])
  return (
    <Card className="space-y-4 p-5">
      <h2 className="font-semibold">New token</h2>
      <fetcher.Form method="post" ref={form} className="space-y-3" autoComplete="off">
        <input type="hidden" name="intent" value="create" />
        <Field label="Name" error={nameError}>
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              name="name"
              placeholder="Claude Code on my laptop"
              required
              maxLength={80}
            />
          )}
        </Field>
        <fieldset className="space-y-1" aria-describedby={scopesError ? 'token-scopes-error' : undefined}>
          <legend className="text-sm font-medium">Scopes</legend>
          {SCOPES.map((scope) => (
            <label key={scope.value} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="scopes"
                value={scope.value}
                defaultChecked={scope.value === 'jobs:read'}
              />
              <span>
                {scope.label}{' '}
                <code className="text-xs text-stone-600 dark:text-stone-400">{scope.value}</code>
                <span className="text-stone-600 dark:text-stone-400">: {scope.hint}</span>
              </span>
            </label>
          ))}
          {scopesError ? (
            <p id="token-scopes-error" role="alert" className="text-sm text-red-600 dark:text-red-400">
              {scopesError}
            </p>
          ) : null}
        </fieldset>
        {general ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {general.message}
          </p>
        ) : null}
        <Button type="submit" disabled={!hydrated} busy={fetcher.state !== 'idle'} busyLabel="Creating…">
          Create token
        </Button>
      </fetcher.Form>
      {token ? (
        <div className="space-y-2" data-testid="new-access-token">
          <p className="text-sm font-medium">
            Copy it now: the token is shown this once. To connect Claude Code, run:
          </p>
          <pre className="overflow-x-auto rounded-lg bg-stone-100 p-3 text-xs break-all whitespace-pre-wrap dark:bg-stone-800">
            {claudeCommand(endpoint, token)}
          </pre>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              size="sm"
              onClick={() => void navigator.clipboard.writeText(claudeCommand(endpoint, token))}
            >
              Copy command
            </Button>
            <Button variant="secondary" size="sm" onClick={() => void navigator.clipboard.writeText(token)}>
              Copy token
            </Button>
          </div>
        </div>
      ) : null}
    </Card>
  )
}

/** Where the focus goes when the token whose Revoke had it is gone. */
const TOKENS_HEADING = 'your-tokens-heading'

function AccessTokenRow({ token }: { token: Data['tokens'][number] }) {
  return (
    <TokenRow
      token={token}
      intent="revoke"
      headingId={TOKENS_HEADING}
      testId={`token-${token.id}`}
      details={
        <>
          <span className="font-medium">{token.name}</span>
          {token.scopes.map((scope) => (
            <Fragment key={scope}>
              {' '}
              <Badge>{scope}</Badge>
            </Fragment>
          ))}
        </>
      }
    />
  )
}

export default function AccessTokensSettings({ loaderData }: Route.ComponentProps) {
  const { tokens, endpoint, orgName } = loaderData
  return (
    <div className="space-y-6">
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Personal access tokens let your own agent (Claude Code, Claude Desktop, any MCP client) manage your
        jobs in {orgName} through Clockwork&apos;s MCP server at <code>{endpoint}</code>, with your rights and
        only the scopes you give. Revoking a token refuses it at once.
      </p>
      <CreateToken endpoint={endpoint} />
      <Card className="p-5">
        <h2 id={TOKENS_HEADING} tabIndex={-1} className="mb-2 font-semibold">
          Your tokens
        </h2>
        {tokens.length ? (
          <ul className="divide-y divide-stone-200 dark:divide-stone-800">
            {tokens.map((t) => (
              <AccessTokenRow key={t.id} token={t} />
            ))}
          </ul>
        ) : (
          <EmptyState icon={<KeyRound className="size-8" />} title="No access tokens yet">
            Make one above, then add Clockwork to your MCP client with it.
          </EmptyState>
        )}
      </Card>
    </div>
  )
}
