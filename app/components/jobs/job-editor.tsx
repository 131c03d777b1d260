import { AlertTriangle, RotateCcw } from 'lucide-react'
import { useRef } from 'react'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { cn } from '#app/lib/cn.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import { fieldError, formLevelError, type ActionData } from '#app/lib/action-errors.ts'
import type { JobFormField } from '#app/lib/job-types.ts'
import { useRevealProblem } from '#app/lib/use-reveal-problem.ts'
import { FormAlert, InstructionsField, RunAsField, WhenFields } from './job-fields.tsx'
import type { JobDraft } from './job-draft.ts'

export const CONFLICT_MESSAGE =
  'Someone else changed this job while you were editing. Your text is kept below; reload to see their version, then re-apply.'

type Props = {
  fields: readonly JobFormField[]
  draft: JobDraft
  setDraft: (update: (d: JobDraft) => JobDraft) => void
  dirty: boolean
  saving: boolean
  result: ActionData | undefined
  conflict: boolean
  showRunAs: boolean
  /** What the person changed that makes them the job's creator ("instructions", "skills"); null: nothing. */
  becomesCreator: string | null
  onSave: () => void
  onDiscard: () => void
  onLoadLatest: () => void
}

/**
 * The edit form of the job page. State lives in the page (it survives a failed save and a 409);
 * this renders it, the errors next to their fields, and the warnings a person needs before saving.
 */
export function JobEditor(props: Props) {
  const { draft, setDraft, dirty, saving, result, conflict } = props
  // Controlled inputs: inert until the script runs, so text typed earlier is not reset.
  const hydrated = useHydrated()
  const set = (key: keyof JobDraft, value: string) => setDraft((d) => ({ ...d, [key]: value }))
  const errorFor = (field: string) => (conflict ? null : fieldError(result, field))
  const general = conflict
    ? null
    : formLevelError(
        result,
        props.fields.map((f) => f.key),
      )
  const formRef = useRef<HTMLFormElement>(null)
  useRevealProblem(formRef, result?.ok === false ? result.error : null)
  return (
    <form
      ref={formRef}
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault()
        props.onSave()
      }}
    >
      <fieldset disabled={!hydrated} className="space-y-5">
        {conflict ? (
          <div
            role="alert"
            className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
          >
            <p className="flex items-start gap-2 font-medium">
              <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden /> {CONFLICT_MESSAGE}
            </p>
            <Button variant="secondary" size="sm" className="mt-3" onClick={props.onLoadLatest}>
              <RotateCcw className="size-3.5" aria-hidden /> Load their version (drops your changes)
            </Button>
          </div>
        ) : general ? (
          <FormAlert message={general.message} />
        ) : null}
        <Card className="space-y-5 p-6">
          <h2 className="font-semibold">What it does</h2>
          <InstructionsField
            value={draft.instructions}
            onChange={(v) => set('instructions', v)}
            error={errorFor('instructions')}
          />
          {props.showRunAs ? <RunAsField draft={draft} set={set} errorFor={errorFor} /> : null}
        </Card>
        <Card className="space-y-5 p-6">
          <h2 className="font-semibold">When it runs</h2>
          <WhenFields fields={props.fields} draft={draft} set={set} errorFor={errorFor} />
        </Card>
        <div
          className={cn(
            'flex flex-wrap items-center justify-end gap-3',
            // Sticky only while there is something to save, so the buttons stay in reach.
            dirty &&
              'sticky bottom-0 z-10 -mx-2 rounded-lg bg-stone-50/90 px-2 py-3 backdrop-blur dark:bg-stone-950/90',
          )}
        >
          {props.becomesCreator ? (
            <p
              className="mr-auto flex items-center gap-2 text-sm text-amber-800 dark:text-amber-300"
              data-testid="becomes-creator"
            >
              <AlertTriangle className="size-4 shrink-0" aria-hidden />
              Saving new {props.becomesCreator} makes you this job’s creator: it will run as you.
            </p>
          ) : dirty ? (
            <p className="mr-auto text-sm text-stone-600 dark:text-stone-400">Unsaved changes</p>
          ) : null}
          <Button variant="ghost" unavailable={!dirty || saving} onClick={props.onDiscard}>
            Discard
          </Button>
          <Button type="submit" busy={saving} busyLabel="Saving…" unavailable={!dirty}>
            Save changes
          </Button>
        </div>
      </fieldset>
    </form>
  )
}
