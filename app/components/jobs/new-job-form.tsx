import { useRef, useState } from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { Button, buttonClass } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Field, Input } from '#app/components/ui/field.tsx'
import { fieldError, formLevelError, type ActionData } from '#app/lib/action-errors.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import { browserTimeZone } from '#app/lib/time.ts'
import { useRevealProblem } from '#app/lib/use-reveal-problem.ts'
import type { JobFormSpec } from '#app/lib/job-types.ts'
import { FormAlert, InstructionsField, RunAsField, WhenFields } from './job-fields.tsx'
import { initialDraft, type JobDraft } from './job-draft.ts'
import { ScopeField } from './scope-field.tsx'

type Props = {
  defaultTimezone: string | null
  canUseSharedKey: boolean
  form: JobFormSpec
  result: ActionData | undefined
}

/**
 * The new-job form. A server error leaves everything typed as it was (nothing remounts), with
 * the message next to the field it names. Name and prompt are plain inputs, so text typed before
 * the script loads is kept; the schedule controls need the script and wait for it.
 */
export function NewJobForm({ defaultTimezone, canUseSharedKey, form, result }: Props) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting'
  const [scope, setScope] = useState<'personal' | 'shared'>('personal')
  // Instructions stay uncontrolled (see InstructionsField); an empty zone means "not picked".
  const [draft, setDraft] = useState<JobDraft>(() => initialDraft(form.fields))
  const hydrated = useHydrated()
  const zone = draft.timezone || defaultTimezone || (hydrated ? browserTimeZone() : 'UTC')
  const shown = { ...draft, timezone: zone }
  const set = (key: keyof JobDraft, value: string) => setDraft((d) => ({ ...d, [key]: value }))
  const errorFor = (field: string) => fieldError(result, field)
  const general = formLevelError(result, ['name', 'scope', ...form.fields.map((f) => f.key)])
  const formRef = useRef<HTMLFormElement>(null)
  useRevealProblem(formRef, result?.ok === false ? result.error : null)
  return (
    <Form method="post" ref={formRef} className="space-y-6">
      {general ? <FormAlert message={general.message} /> : null}
      <Card className="space-y-5 p-6">
        <h2 className="font-semibold">What it does</h2>
        <Field
          label="Name"
          error={errorFor('name')}
          hint="Lowercase letters, digits and dashes, like daily-signups. It is also the file name jobs/<name>.md."
        >
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              name="name"
              required
              autoFocus
              autoComplete="off"
              spellCheck={false}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              placeholder="daily-signups"
              className="font-mono"
            />
          )}
        </Field>
        <InstructionsField error={errorFor('instructions')} />
        {/* Controlled from here on: inert until the script runs, so nothing typed is reset. */}
        <fieldset disabled={!hydrated} className="space-y-5">
          <ScopeField value={scope} onChange={setScope} error={errorFor('scope')} />
          {scope === 'shared' && canUseSharedKey ? (
            <RunAsField draft={draft} set={set} errorFor={errorFor} />
          ) : null}
        </fieldset>
      </Card>
      <Card className="p-6">
        <fieldset disabled={!hydrated} className="space-y-5">
          <legend className="mb-5 font-semibold">When it runs</legend>
          <WhenFields fields={form.fields} draft={shown} set={set} errorFor={errorFor} />
        </fieldset>
      </Card>
      <div className="flex items-center justify-end gap-3">
        <Link to="/jobs" className={buttonClass('ghost')}>
          Cancel
        </Link>
        <Button type="submit" disabled={!hydrated} busy={busy} busyLabel="Creating…">
          Create job
        </Button>
      </div>
    </Form>
  )
}
