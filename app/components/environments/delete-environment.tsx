import type { EnvironmentSummary } from '#server/environments/browse/browse.ts'
import { ConfirmDeleteDialog } from '#app/components/ui/confirm-delete-dialog.tsx'

/**
 * Delete, on the environment's page (a labelled button) or on its row in the list (an icon named
 * after it): the dialog says what goes and what stays, and shows a refusal (403, 409 busy or
 * elsewhere) as the page's action answers it. When the instance holding the folder does not answer
 * (`folderLeftOn`), it says only the record goes and the folder stays there, and asks for exactly
 * that (decision 0466).
 */
export function DeleteEnvironment({
  environment: e,
  compact = false,
  focusAfterRemoval,
  folderLeftOn,
}: {
  environment: Pick<EnvironmentSummary, 'name' | 'scope' | 'definitionPath'>
  /** An icon-only trigger, for a table row. */
  compact?: boolean
  /** Where the focus goes once the deleted row, and its trigger, are gone. */
  focusAfterRemoval?: string
  /** The instance holding its folder, when that instance does not answer. */
  folderLeftOn?: string
}) {
  const what = e.definitionPath
    ? `Its definition (${e.definitionPath}) stays, so this resets it: the next use starts with an empty folder.`
    : 'It has no definition any more, so it is gone for good.'
  const scope = e.scope === 'shared' ? 'shared' : 'personal'
  return (
    <ConfirmDeleteDialog
      trigger={
        compact
          ? { variant: 'ghost', label: `Delete the ${scope} environment ${e.name}` }
          : { variant: 'secondary', text: 'Delete' }
      }
      title={`Delete the environment ${e.name}?`}
      description={
        folderLeftOn
          ? `Its folder is on the app server ${folderLeftOn}, which does not answer: only its record is deleted here, and the folder and its files stay on ${folderLeftOn}. Its audit log is kept. ${what}`
          : `Its folder and snapshot on the server are removed, with every file in them. Its audit log is kept. ${what}`
      }
      confirm="Delete"
      fields={{ name: e.name, scope: e.scope, ...(folderLeftOn ? { leaveFolder: 'true' } : {}) }}
      focusAfterRemoval={focusAfterRemoval}
      // Its instance found gone only now (the list does not ask): the refusal's way out, one click.
      whenRefused={
        folderLeftOn
          ? undefined
          : { status: 503, confirm: 'Delete the record only', fields: { leaveFolder: 'true' } }
      }
    />
  )
}
