import { Dialog } from 'radix-ui'
import { useState } from 'react'
import { useFetcher } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { DialogCloseX } from '#app/components/ui/dialog-close-x.tsx'
import { Field, Input, inputClass } from '#app/components/ui/field.tsx'
import { stripFieldPrefix, type ActionData } from '#app/lib/action-errors.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import { dialogOverlayClass, dialogPanelClass } from '#app/components/ui/dialog-frame.ts'

type Kind = 'job' | 'environment' | 'file'

const COPY = {
  job: {
    title: 'New job',
    description:
      'Creates jobs/<name>.md from a template. It starts paused; enable it once the prompt is ready.',
    label: 'Name',
    placeholder: 'Daily sign-ups',
    // The server makes the slug (server/jobs/field-schemas.ts toJobName), so one rule decides.
    hint: 'Any name: it is saved as a slug, e.g. “Weekly Report!” becomes weekly-report.',
    field: 'name',
    intent: 'create-job',
  },
  environment: {
    title: 'New environment',
    description:
      'Creates environments/<name>.md from a template: provider, command policy, secrets, limits and instructions for the agent.',
    label: 'Name',
    placeholder: 'data-scripts',
    hint: 'Any name: it is saved as a slug, e.g. “Data Scripts” becomes data-scripts.',
    field: 'name',
    intent: 'create-environment',
  },
  file: {
    title: 'New file',
    description: 'An empty text file the agent and your team can read and edit.',
    label: 'Path',
    placeholder: 'notes/ideas.md',
    hint: 'Folders are made as needed. Letters, digits, dots, dashes and underscores.',
    field: 'path',
    intent: 'create-file',
  },
} as const

/**
 * "+ Job", "+ Environment" and "+ File": ask the name and where, then open the new file. `trigger` gets
 * `disabled` until the script runs (the dialog needs it).
 */
export function CreateDialog({
  kind,
  trigger,
}: {
  kind: Kind
  trigger: (disabled: boolean) => React.ReactNode
}) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<ActionData>()
  const [scope, setScope] = useState<'personal' | 'shared'>('personal')
  const copy = COPY[kind]
  const error = fetcher.data && !fetcher.data.ok ? fetcher.data.error : null
  const busy = fetcher.state !== 'idle'
  return (
    <Dialog.Root>
      <Dialog.Trigger asChild>{trigger(!hydrated)}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={dialogOverlayClass} />
        <Dialog.Content className={dialogPanelClass}>
          <Dialog.Title className="text-lg font-semibold">{copy.title}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            {copy.description}
          </Dialog.Description>
          <fetcher.Form method="post" className="mt-5 space-y-4">
            <input type="hidden" name="intent" value={copy.intent} />
            <Field
              label={copy.label}
              error={error ? stripFieldPrefix(error.message, error.field ?? '') : null}
              hint={copy.hint}
            >
              {({ id, describedBy, invalid }) => (
                <Input
                  id={id}
                  name={copy.field}
                  required
                  autoFocus
                  autoComplete="off"
                  spellCheck={false}
                  placeholder={copy.placeholder}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  className={kind === 'file' ? 'font-mono' : undefined}
                />
              )}
            </Field>
            <Field label="Workspace">
              {({ id }) => (
                <select
                  id={id}
                  name="scope"
                  value={scope}
                  onChange={(e) => setScope(e.target.value as typeof scope)}
                  className={inputClass}
                >
                  <option value="personal">Personal (only you)</option>
                  <option value="shared">Shared (the organisation)</option>
                </select>
              )}
            </Field>
            <div className="flex justify-end gap-3 pt-2">
              <Dialog.Close asChild>
                <Button variant="secondary">Cancel</Button>
              </Dialog.Close>
              <Button type="submit" busy={busy} busyLabel="Creating…">
                Create
              </Button>
            </div>
          </fetcher.Form>
          <DialogCloseX />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
