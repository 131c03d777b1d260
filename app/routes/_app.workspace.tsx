import { FolderTree } from 'lucide-react'
import { EmptyState, PageHeader } from '#app/components/ui/card.tsx'

export const meta = () => [{ title: 'Workspace · Clockwork' }]

export default function Workspace() {
  return (
    <>
      <PageHeader title="Workspace" description="Files the agent and your team work with." />
      <EmptyState icon={<FolderTree className="size-7" />} title="No files yet" />
    </>
  )
}
