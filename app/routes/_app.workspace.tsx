import { Boxes, FilePlus2, FileSearch, FolderTree, Plus } from 'lucide-react'
import { useLocation, type ShouldRevalidateFunctionArgs } from 'react-router'
import { PageError } from '#app/components/ui/page-error.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, EmptyState, PageHeader } from '#app/components/ui/card.tsx'
import { CreateDialog } from '#app/components/workspace/create-dialog.tsx'
import { FilePanel } from '#app/components/workspace/file-panel.tsx'
import { FileTreeSection, TREE_BESIDE_FILE } from '#app/components/workspace/file-tree.tsx'
import { requirePageCaller } from '#server/http/pages.ts'
import { handleWorkspaceAction, loadWorkspace } from '#server/pages/workspace-page.ts'
import type { Route } from './+types/_app.workspace'

export const meta = ({ data }: Route.MetaArgs) => [
  { title: data?.selected ? `${data.selected.path} · Workspace · Clockwork` : 'Workspace · Clockwork' },
]

export async function loader({ request }: Route.LoaderArgs) {
  return loadWorkspace(await requirePageCaller(request), new URL(request.url))
}

export async function action({ request }: Route.ActionArgs) {
  return handleWorkspaceAction(await requirePageCaller(request), request)
}

// Validating as you type changes nothing, so it must not reload the page's data.
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formData?.get('intent') === 'validate' ? false : defaultShouldRevalidate
}

export default function Workspace({ loaderData }: Route.ComponentProps) {
  const { tree, selected, file, fileError } = loaderData
  const location = useLocation()
  const actions = (
    <>
      <CreateDialog
        key={`job${location.search}`}
        kind="job"
        trigger={(disabled) => (
          <Button disabled={disabled}>
            <Plus className="size-4" aria-hidden /> Job
          </Button>
        )}
      />
      <CreateDialog
        key={`environment${location.search}`}
        kind="environment"
        trigger={(disabled) => (
          <Button variant="secondary" disabled={disabled}>
            <Boxes className="size-4" aria-hidden /> Environment
          </Button>
        )}
      />
      <CreateDialog
        key={`file${location.search}`}
        kind="file"
        trigger={(disabled) => (
          <Button variant="secondary" disabled={disabled}>
            <FilePlus2 className="size-4" aria-hidden /> File
          </Button>
        )}
      />
    </>
  )
  return (
    <>
      <PageHeader
        title="Workspace"
        description="Files the agent and your team work with. Job files are jobs: edit one and the job changes."
        actions={actions}
      />
      <div className={TREE_BESIDE_FILE}>
        <Card className="space-y-4 p-2 py-3">
          <FileTreeSection scope="personal" title="Personal" entries={tree.personal} selected={selected} />
          <FileTreeSection scope="shared" title="Shared" entries={tree.shared} selected={selected} />
        </Card>
        <Card className="min-w-0 overflow-hidden">
          {file ? (
            <FilePanel key={`${file.scope}:${file.path}`} file={file} />
          ) : (
            <div className="p-6">
              <EmptyState
                icon={fileError ? <FileSearch className="size-8" /> : <FolderTree className="size-8" />}
                title={fileError ? 'Cannot open this file' : 'Pick a file'}
              >
                {fileError ??
                  'Choose a file from the list, or create a scheduled task: a job written as a Markdown file with a YAML header.'}
              </EmptyState>
            </div>
          )}
        </Card>
      </div>
    </>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <PageError error={error} what="workspace" />
}
