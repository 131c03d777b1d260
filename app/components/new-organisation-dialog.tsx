import { Dialog } from 'radix-ui'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { DialogCloseX } from '#app/components/ui/dialog-close-x.tsx'
import { dialogOverlayClass, dialogPanelClass } from '#app/components/ui/dialog-frame.ts'
import { Field, Input } from '#app/components/ui/field.tsx'
import { fieldError, formLevelError, type ActionData } from '#app/lib/action-errors.ts'

/** Where the organisation page's action lives (server/pages/settings-organisation.ts): it makes one too. */
const ORGANISATION_ACTION = '/settings/organisation'

/**
 * The switcher's New organisation: asks the name (the server makes the slug from it), and on
 * success the action loads the new organisation's jobs page. A bad name shows on the field, any
 * other refusal (how many a person may own) above the buttons. Opened from a menu item, so it has
 * no trigger of its own: closing gives the focus back to `returnFocusTo` (the switcher's button).
 */
export function NewOrganisationDialog({
  open,
  onOpenChange,
  returnFocusTo,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  returnFocusTo: React.RefObject<HTMLElement | null>
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={dialogOverlayClass} />
        <Dialog.Content
          className={dialogPanelClass}
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            returnFocusTo.current?.focus()
          }}
        >
          <Dialog.Title className="text-lg font-semibold">New organisation</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            You become its owner and switch to it. Invite people from Settings → Members.
          </Dialog.Description>
          <CreateForm />
          <DialogCloseX />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

/** The dialog's form, inside its content: each opening starts without the last attempt's errors. */
function CreateForm() {
  const fetcher = useFetcher<ActionData>()
  const result = fetcher.data?.intent === 'create' ? fetcher.data : undefined
  const nameError = fieldError(result, 'name')
  const general = formLevelError(result, ['name'])
  return (
    <fetcher.Form method="post" action={ORGANISATION_ACTION} className="mt-5 space-y-4">
      <input type="hidden" name="intent" value="create" />
      <Field label="Name" error={nameError} hint="What its members see in the switcher; you can rename it.">
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            name="name"
            required
            maxLength={100}
            autoFocus
            autoComplete="off"
            placeholder="Acme Research"
            aria-invalid={invalid}
            aria-describedby={describedBy}
          />
        )}
      </Field>
      {general ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {general.message}
        </p>
      ) : null}
      <div className="flex justify-end gap-3 pt-2">
        <Dialog.Close asChild>
          <Button variant="secondary">Cancel</Button>
        </Dialog.Close>
        <Button type="submit" busy={fetcher.state !== 'idle'} busyLabel="Creating…">
          Create organisation
        </Button>
      </div>
    </fetcher.Form>
  )
}
