import { AlertCircle, ChevronRight } from 'lucide-react'
import { Field, inputClass } from '#app/components/ui/field.tsx'
import { cn } from '#app/lib/cn.ts'
import type { JobFormField, JobFormKey } from '#app/lib/job-types.ts'
import type { JobDraft } from './job-draft.ts'
import { ScheduleField } from './schedule-field.tsx'
import { TimezonePicker } from './timezone-picker.tsx'

type SetDraft = (key: JobFormKey, value: string) => void
type ErrorFor = (field: string) => string | null
type FieldProps = { draft: JobDraft; set: SetDraft; errorFor: ErrorFor }

/**
 * The prompt the agent runs: a roomy monospace textarea that keeps Markdown readable. Controlled
 * (`value`/`onChange`) on the job page, uncontrolled (`defaultValue`) on the new-job form, where
 * text typed before the page's script has loaded must survive hydration.
 */
export function InstructionsField({
  value,
  onChange,
  error,
}: {
  value?: string
  onChange?: (text: string) => void
  error: string | null
}) {
  return (
    <Field
      label="Prompt"
      error={error}
      hint="What the agent should do on every run, in plain language (Markdown works)."
    >
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          name="instructions"
          required
          rows={8}
          {...(onChange ? { value, onChange: (e) => onChange(e.target.value) } : { defaultValue: value })}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          placeholder="Summarise yesterday's sign-ups and post the numbers."
          className={cn(inputClass, 'min-h-40 resize-y font-mono text-[13px] leading-relaxed')}
        />
      )}
    </Field>
  )
}

export function TimezoneField({
  draft,
  set,
  errorFor,
}: {
  draft: JobDraft
  set: SetDraft
  errorFor: ErrorFor
}) {
  return (
    <Field
      label="Time zone"
      error={errorFor('timezone')}
      hint="The schedule is read in this zone, DST included."
    >
      {({ id, describedBy, invalid }) => (
        <TimezonePicker
          id={id}
          name="timezone"
          value={draft.timezone}
          onChange={(zone) => set('timezone', zone)}
          invalid={invalid}
          describedBy={describedBy}
        />
      )}
    </Field>
  )
}

/** Whose model key and identity runs use. Only admins see it, and only for shared jobs. */
export function RunAsField({ draft, set, errorFor }: { draft: JobDraft; set: SetDraft; errorFor: ErrorFor }) {
  return (
    <Field
      label="Runs as"
      error={errorFor('runAs')}
      hint={
        draft.runAs === 'shared'
          ? "Runs use the organisation's model key."
          : 'Runs use the identity and model key of whoever wrote the current prompt.'
      }
    >
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          name="runAs"
          value={draft.runAs}
          onChange={(e) => set('runAs', e.target.value)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          className={inputClass}
        >
          <option value="creator">The creator</option>
          <option value="shared">The organisation (shared key)</option>
        </select>
      )}
    </Field>
  )
}

/** One registry field with a generic widget (select, number, list or text), as the loader describes it. */
function GenericField({ field, draft, set, errorFor }: FieldProps & { field: JobFormField }) {
  if (field.widget === 'custom') return null
  return (
    <Field label={field.label} error={errorFor(field.key)} hint={field.hint}>
      {({ id, describedBy, invalid }) => {
        const common = {
          id,
          name: field.key,
          value: draft[field.key],
          onChange: (e: { target: { value: string } }) => set(field.key, e.target.value),
          'aria-invalid': invalid,
          'aria-describedby': describedBy,
          className: inputClass,
        }
        return field.widget === 'select' ? (
          <select {...common}>
            {field.options.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        ) : field.widget === 'list' || field.widget === 'text' ? (
          <input {...common} type="text" autoComplete="off" spellCheck={false} />
        ) : (
          <input {...common} type="number" min={field.min} max={field.max} step={field.step} />
        )
      }}
    </Field>
  )
}

/** A label inside a sentence: lowercase first letter, unless it opens with an abbreviation ("MCP servers"). */
function inSentence(label: string): string {
  return /^[A-Z]{2}/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1)
}

/** The advanced fields (catch-up, overlap, retries, timeout…): sensible defaults, tucked away until needed. */
export function AdvancedFields({
  fields,
  draft,
  set,
  errorFor,
}: FieldProps & { fields: readonly JobFormField[] }) {
  const advanced = fields.filter((f) => f.section === 'advanced' && f.widget !== 'custom')
  const open = advanced.some((f) => errorFor(f.key))
  return (
    <details open={open} className="group rounded-lg border border-stone-200 dark:border-stone-800">
      <summary className="flex cursor-pointer flex-wrap items-center gap-x-2 gap-y-0.5 px-4 py-2.5 text-sm font-medium select-none">
        <ChevronRight className="size-4 transition-transform group-open:rotate-90" aria-hidden /> Advanced
        {/* On a phone the list takes its own lines under the label (a column beside it was a word wide). */}
        <span className="basis-full pl-6 font-normal text-stone-600 sm:flex-1 sm:basis-0 sm:pl-0 dark:text-stone-400">
          {advanced.map((f) => (f.widget === 'custom' ? '' : inSentence(f.label))).join(', ')}
        </span>
      </summary>
      {/* Two abreast from a 48rem column: below it (the open chat's column) a select got 214 px and cut
          its options ("Run the latest missed slot once"); decision 0529. */}
      <div className="grid gap-4 border-t border-stone-200 px-4 py-4 @3xl:grid-cols-2 dark:border-stone-800">
        {advanced.map((field) => (
          <GenericField key={field.key} field={field} draft={draft} set={set} errorFor={errorFor} />
        ))}
      </div>
    </details>
  )
}

/** "When it runs": schedule, time zone and the advanced fields, shared by the new-job form and the editor. */
export function WhenFields({
  fields,
  draft,
  set,
  errorFor,
}: FieldProps & { fields: readonly JobFormField[] }) {
  return (
    <>
      <ScheduleField
        value={draft.schedule}
        onChange={(v) => set('schedule', v)}
        timezone={draft.timezone}
        error={errorFor('schedule')}
      />
      <TimezoneField draft={draft} set={set} errorFor={errorFor} />
      <AdvancedFields fields={fields} draft={draft} set={set} errorFor={errorFor} />
    </>
  )
}

/** A form-level error (one no field claims), above the form. */
export function FormAlert({ message }: { message: string }) {
  return (
    <p
      role="alert"
      className="flex items-center gap-2 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
    >
      <AlertCircle className="size-4 shrink-0" aria-hidden /> {message}
    </p>
  )
}
