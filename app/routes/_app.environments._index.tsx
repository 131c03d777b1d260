import { Boxes, FileText, Plus } from 'lucide-react'
import { Link, useLocation, useNavigation } from 'react-router'
import { DeleteEnvironment } from '#app/components/environments/delete-environment.tsx'
import { environmentHref, formatBytes, StatusBadge } from '#app/components/environments/environment-chips.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Badge, Card, PageHeader } from '#app/components/ui/card.tsx'
import { CreateDialog } from '#app/components/workspace/create-dialog.tsx'
import { PageError } from '#app/components/ui/page-error.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { TableHead } from '#app/components/ui/table-head.tsx'
import { cn } from '#app/lib/cn.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleEnvironmentsListAction, loadEnvironmentsList } from '#server/pages/environments-page.ts'
import type { Route } from './+types/_app.environments._index'

export const meta = () => [{ title: 'Environments · Clockwork' }]

export async function loader({ request }: Route.LoaderArgs) {
  return loadEnvironmentsList(await requirePageCaller(request))
}

export async function action({ request }: Route.ActionArgs) {
  return handleEnvironmentsListAction(await requirePageCaller(request), request)
}

type Environment = Route.ComponentProps['loaderData']['environments'][number]

// Size, last activity and the definition show from a 48rem main column (a container query): on a
// phone or beside the open chat the name, scope and status are the row (decision 0529).
const wide = 'hidden @3xl:table-cell'
const COLUMNS = [
  { label: 'Name' },
  { label: 'Scope' },
  { label: 'Status' },
  { label: 'Size', className: cn(wide, 'text-right') },
  { label: 'Last activity', className: wide },
  { label: 'Definition', className: wide },
  { label: <span className="sr-only">Actions</span>, className: 'w-0' },
]

// Where the focus goes once a deleted row, and its Delete button, are gone.
const LIST = 'environments-list'

function Row({ environment: e }: { environment: Environment }) {
  return (
    <tr data-testid={`environment-${e.scope}-${e.name}`}>
      <td className="px-4 py-3">
        <Link to={environmentHref(e)} className="font-medium text-stone-900 hover:underline dark:text-white">
          {e.name}
        </Link>
        {e.shadowed ? (
          <p className="text-xs text-amber-700 dark:text-amber-400">
            Hidden by your personal {e.name}: the agent uses yours
          </p>
        ) : null}
      </td>
      <td className="px-4 py-3">
        <Badge tone={e.scope === 'shared' ? 'blue' : 'neutral'}>
          {e.scope === 'shared' ? 'Shared' : 'Personal'}
        </Badge>
      </td>
      <td className="px-4 py-3">
        <StatusBadge status={e.status} />
      </td>
      <td className={cn('px-4 py-3 text-right tabular-nums', wide)}>{formatBytes(e.sizeBytes)}</td>
      <td className={cn('px-4 py-3', wide)}>
        <RelativeTime value={e.lastActivityAt} empty="never used" />
      </td>
      <td className={cn('px-4 py-3', wide)}>
        {e.definitionPath ? (
          <Link
            to={`/workspace?${new URLSearchParams({ scope: e.scope, path: e.definitionPath })}`}
            className="inline-flex items-center gap-1 font-mono text-xs text-stone-600 hover:underline dark:text-stone-400"
          >
            <FileText className="size-3.5" aria-hidden />
            {e.definitionPath}
          </Link>
        ) : (
          <span className="text-xs text-stone-600 dark:text-stone-400">
            {e.name === 'scratch' ? 'built in' : 'none'}
          </span>
        )}
      </td>
      <td className="px-2 py-3 text-right">
        {e.canDelete ? <DeleteEnvironment environment={e} compact focusAfterRemoval={LIST} /> : null}
      </td>
    </tr>
  )
}

/** What the organisation's environments hold together against ORG_MAX_DISK_MB (decision 0491). */
function DiskTotal({ disk }: { disk: Route.ComponentProps['loaderData']['disk'] }) {
  const share = disk.limitBytes > 0 ? disk.usedBytes / disk.limitBytes : 1
  const full = share >= 1
  return (
    <p
      data-testid="environments-disk"
      className={cn(
        'mt-3 text-sm tabular-nums',
        full
          ? 'text-red-700 dark:text-red-400'
          : share >= 0.8
            ? 'text-amber-700 dark:text-amber-400'
            : 'text-stone-600 dark:text-stone-400',
      )}
    >
      This organisation&apos;s environments hold {formatBytes(disk.usedBytes)} of{' '}
      {formatBytes(disk.limitBytes)}
      {full
        ? ': full. Commands that write are refused until files or environments are deleted.'
        : ' (each measured after its last command).'}
    </p>
  )
}

export default function Environments({ loaderData }: Route.ComponentProps) {
  const { environments, disk } = loaderData
  const busy = useNavigation().state === 'loading'
  const location = useLocation()
  const onlyScratch = environments.every((e) => e.name === 'scratch' && !e.id)
  const create = (label: string, variant: 'primary' | 'secondary' = 'primary') => (
    <CreateDialog
      // A fresh dialog (and form) after each navigation, so a created one leaves no stale error.
      key={location.key}
      kind="environment"
      trigger={(disabled) => (
        <Button variant={variant} disabled={disabled}>
          <Plus className="size-4" aria-hidden /> {label}
        </Button>
      )}
    />
  )
  return (
    <>
      <PageHeader
        title="Environments"
        description="Working folders where the agent (and you) write files and run commands, under each one's policy."
        actions={create('New environment')}
      />
      <Card
        id={LIST}
        tabIndex={-1}
        className={cn('overflow-x-auto transition-opacity outline-none', busy && 'opacity-60')}
        aria-busy={busy}
      >
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Environments ({environments.length})</caption>
          <TableHead columns={COLUMNS} />
          <tbody className="divide-y divide-stone-100 dark:divide-stone-800">
            {environments.map((e) => (
              <Row key={`${e.scope}/${e.name}`} environment={e} />
            ))}
          </tbody>
        </table>
      </Card>
      <DiskTotal disk={disk} />
      {onlyScratch ? (
        // Not "empty": scratch is listed above. What is missing is one of your own. The text
        // beside its button from a 42rem column; below (beside the open chat) it got 230 px.
        <div
          className="mt-4 flex flex-col items-start gap-3 rounded-xl border border-dashed border-stone-300 px-5 py-5 text-sm @2xl:flex-row @2xl:items-center dark:border-stone-700"
          data-testid="only-scratch"
        >
          <Boxes className="size-6 shrink-0 text-stone-600 dark:text-stone-400" aria-hidden />
          <p className="flex-1 text-stone-600 dark:text-stone-400">
            Only the built-in <code>scratch</code> so far. Give a project an environment of its own: its
            definition <code>environments/&lt;name&gt;.md</code> sets its command policy, secrets, limits and
            the agent’s instructions.
          </p>
          {create('Create an environment', 'secondary')}
        </div>
      ) : null}
    </>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <PageError error={error} what="list of environments" />
}
