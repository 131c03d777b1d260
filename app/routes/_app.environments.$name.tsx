import { ArrowLeft, FileSearch, FileText, FolderOpen, RotateCcw } from 'lucide-react'
import { lazy, Suspense } from 'react'
import { Link, useNavigation } from 'react-router'
import { AuditLog } from '#app/components/environments/audit-log.tsx'
import { BootstrapPanel } from '#app/components/environments/bootstrap-panel.tsx'
import { CommandBox } from '#app/components/environments/command-box.tsx'
import { ConfirmDeleteDialog } from '#app/components/ui/confirm-delete-dialog.tsx'
import { DeleteEnvironment } from '#app/components/environments/delete-environment.tsx'
import { environmentHref, formatBytes, StatusBadge } from '#app/components/environments/environment-chips.tsx'
import { FileChanges } from '#app/components/environments/file-changes.tsx'
import { FileTreeSection, TREE_BESIDE_FILE } from '#app/components/workspace/file-tree.tsx'
import { buttonClass } from '#app/components/ui/button.tsx'
import { Badge, Card, EmptyState, PageHeader } from '#app/components/ui/card.tsx'
import { Facts } from '#app/components/ui/facts.tsx'
import { PageError } from '#app/components/ui/page-error.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { cn } from '#app/lib/cn.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleEnvironmentAction, loadEnvironmentPage } from '#server/pages/environments-page.ts'
import type { Route } from './+types/_app.environments.$name'

const CodeEditor = lazy(() => import('#app/components/workspace/code-editor.tsx'))
/** A read-only file is never validated: nothing to mark (one array, so the editor never re-marks). */
const NO_MARKS: never[] = []

export const meta = ({ data }: Route.MetaArgs) => [
  { title: data ? `${data.environment.name} · Environments · Clockwork` : 'Environment · Clockwork' },
]

export async function loader({ request, params }: Route.LoaderArgs) {
  return loadEnvironmentPage(await requirePageCaller(request), params.name, new URL(request.url))
}

export async function action({ request, params }: Route.ActionArgs) {
  return handleEnvironmentAction(await requirePageCaller(request), params.name, request)
}

type Data = Route.ComponentProps['loaderData']

function FilesCard({ data }: { data: Data }) {
  const { environment, files, selected } = data
  const entries = files.ok ? files.data.entries.filter((e) => e.type !== 'folder') : []
  const folders = files.ok ? files.data.entries.filter((e) => e.type === 'folder').map((e) => e.path) : []
  return (
    <Card className="space-y-2 p-2 py-3">
      {!files.ok ? (
        <p role="alert" className="px-2 text-sm text-red-700 dark:text-red-400">
          {files.message}
        </p>
      ) : files.data.entries.length === 0 ? (
        <p className="px-2 text-sm text-stone-600 dark:text-stone-400">
          {environment.id ? 'No files yet.' : 'Not started: its folder is made by the first command.'}
        </p>
      ) : (
        <FileTreeSection
          scope={environment.scope}
          title={environment.name}
          entries={entries.map((e) => ({ path: e.path, kind: 'file' as const, canEdit: true }))}
          folders={folders}
          selected={selected ? { scope: environment.scope, path: selected } : null}
          hrefOf={(scope, path) => environmentHref({ name: environment.name, scope }, { file: path })}
        />
      )}
      {files.ok && 'truncated' in files.data ? (
        <p className="px-2 text-xs text-stone-600 dark:text-stone-400">Showing the first 1000 entries.</p>
      ) : null}
    </Card>
  )
}

/** Its folder is on another instance: say whether that one answers, and offer "Rebuild here" when not. */
function HolderNotice({ data }: { data: Data }) {
  const { holder, environment: e } = data
  if (!holder) return null
  if (holder.reachable) {
    return (
      <p role="status" className="mb-4 rounded-lg bg-stone-100 px-4 py-2 text-sm dark:bg-stone-900">
        Its folder lives on another app server ({holder.instanceId}), which answers: commands and files are
        sent there{data.canDelete ? ', and deleting it removes the folder there' : ''}.
      </p>
    )
  }
  return (
    <div
      role="alert"
      className="mb-4 flex flex-wrap items-center gap-3 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-300"
    >
      <p className="min-w-0 flex-1">
        Unreachable: its folder lives on another app server ({holder.instanceId})
        {holder.instanceUrl ? ` (${holder.instanceUrl})` : ''}, which does not answer. Commands and files fail
        until it is back
        {holder.mayRebuild
          ? ', or until you rebuild it here.'
          : '; its owner or an admin may rebuild it here.'}
        {data.canDelete
          ? ` Deleting it now removes only its record; its folder stays on ${holder.instanceId}.`
          : ''}
      </p>
      {holder.mayRebuild ? (
        <ConfirmDeleteDialog
          trigger={{ variant: 'secondary', text: 'Rebuild here' }}
          icon={<RotateCcw className="size-4" aria-hidden />}
          title={`Rebuild ${e.name} on this server?`}
          description={`Its folder starts empty here; the files on ${holder.instanceId} stay there and are no longer used, even if it comes back.`}
          confirm="Rebuild here"
          busyText="Rebuilding…"
          cancel="Cancel"
          intent="rebuild"
          fields={{ scope: e.scope }}
        />
      ) : null}
    </div>
  )
}

/** Delete, saying that a definition still in the workspace only resets it (decision 0461). */
function Viewer({ data }: { data: Data }) {
  const hydrated = useHydrated()
  const { file, selected, files } = data
  if (!selected || !file) {
    // Nothing to pick yet: say how files come, not to choose one (the list sits above in a narrow column).
    const none = files.ok && files.data.entries.length === 0
    return (
      <div className="p-6">
        {none ? (
          <EmptyState icon={<FolderOpen className="size-8" />} title="No files yet">
            Run a command above (e.g. <code>git clone</code>) or ask the agent to write one; the files show up
            in the list to read here.
          </EmptyState>
        ) : (
          <EmptyState icon={<FolderOpen className="size-8" />} title="Pick a file">
            Choose a file from the list to read it. Files change through commands and the agent.
          </EmptyState>
        )}
      </div>
    )
  }
  if (!file.ok) {
    return (
      <div className="p-6">
        <EmptyState icon={<FileSearch className="size-8" />} title="Cannot open this file">
          {file.message}
        </EmptyState>
      </div>
    )
  }
  const { content, totalLines, endLine } = file.data
  return (
    <div className="flex min-w-0 flex-col">
      <div className="flex flex-wrap items-center gap-2 border-b border-stone-200 px-4 py-2.5 dark:border-stone-800">
        <h2 className="min-w-0 truncate font-mono text-sm">{file.data.path}</h2>
        <Badge>Read-only</Badge>
        {endLine < totalLines ? (
          <span className="ml-auto text-xs text-stone-600 dark:text-stone-400">
            Lines 1–{endLine} of {totalLines}
          </span>
        ) : null}
      </div>
      {hydrated ? (
        <Suspense fallback={<Fallback text={content} />}>
          <CodeEditor
            path={file.data.path}
            value={content}
            onChange={() => {}}
            readOnly
            errorLines={NO_MARKS}
          />
        </Suspense>
      ) : (
        <Fallback text={content} />
      )}
    </div>
  )
}

function Fallback({ text }: { text: string }) {
  return (
    <pre className="min-h-96 overflow-auto px-4 py-3 font-mono text-[13px] whitespace-pre-wrap" aria-busy>
      {text}
    </pre>
  )
}

export default function EnvironmentPage({ loaderData }: Route.ComponentProps) {
  const { environment: e } = loaderData
  const busy = useNavigation().state === 'loading'
  const definition = e.definitionPath ? (
    <Link
      to={`/workspace?${new URLSearchParams({ scope: e.scope, path: e.definitionPath })}`}
      className={buttonClass('secondary')}
    >
      <FileText className="size-4" aria-hidden /> {e.definitionPath}
    </Link>
  ) : null
  return (
    <div className={cn('transition-opacity', busy && 'opacity-70')} aria-busy={busy}>
      <Link
        to="/environments"
        className="mb-3 inline-flex items-center gap-1 text-sm text-stone-600 dark:text-stone-400 hover:text-stone-800 dark:hover:text-stone-200"
      >
        <ArrowLeft className="size-4" aria-hidden /> Environments
      </Link>
      <PageHeader
        title={e.name}
        description={
          <Facts>
            {/* The badges and the size are one fact: what starts the first line needs no dot. */}
            <span className="flex flex-wrap items-center gap-2">
              <Badge tone={e.scope === 'shared' ? 'blue' : 'neutral'}>
                {e.scope === 'shared' ? 'Shared' : 'Personal'}
              </Badge>
              <StatusBadge status={e.status} />
              <span>{formatBytes(e.sizeBytes)} on disk</span>
            </span>
            <span>
              last activity <RelativeTime value={e.lastActivityAt} empty="never" />
            </span>
            {e.instanceId ? (
              <span
                data-testid="environment-server"
                title={`Its folder lives on the app server ${e.instanceId} (host name and folder id), where its commands run`}
              >
                stored on server {e.instanceId.split(':')[0]}
              </span>
            ) : null}
          </Facts>
        }
        actions={
          // None for scratch, which has neither: an empty box would still take a row on a phone.
          definition || loaderData.canDelete ? (
            <span className="flex flex-wrap items-center gap-2">
              {definition}
              {loaderData.canDelete ? (
                <DeleteEnvironment
                  environment={e}
                  folderLeftOn={
                    loaderData.holder?.reachable === false ? loaderData.holder.instanceId : undefined
                  }
                />
              ) : null}
            </span>
          ) : undefined
        }
      />
      {e.definition && !e.definition.ok ? (
        <p
          role="alert"
          className="mb-4 rounded-lg bg-red-50 px-4 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-300"
        >
          The definition does not parse: {e.definition.message}
        </p>
      ) : null}
      <HolderNotice data={loaderData} />
      {e.shadowed ? (
        <p className="mb-4 rounded-lg bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
          Your personal environment {e.name} has the same name: the agent and the command box use yours.
        </p>
      ) : null}
      <div className="space-y-4">
        {(e.definition?.ok && e.definition.builds) || loaderData.bootstrap ? (
          <BootstrapPanel initial={loaderData.bootstrap} name={e.name} scope={e.scope} />
        ) : null}
        <CommandBox scope={e.scope} canUse={e.canUse} />
        <div className={TREE_BESIDE_FILE}>
          <FilesCard data={loaderData} />
          <Card className="min-w-0 overflow-hidden">
            <Viewer data={loaderData} />
          </Card>
        </div>
        <FileChanges changes={loaderData.changes} />
        <AuditLog audit={loaderData.audit} />
      </div>
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <PageError
      error={error}
      what="environment"
      back={{ to: '/environments', label: 'Back to environments' }}
    />
  )
}
