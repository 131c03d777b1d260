import { ChevronRight } from 'lucide-react'
import { Field, inputClass } from '#app/components/ui/field.tsx'
import { cn } from '#app/lib/cn.ts'
import type { JobDraft } from './job-draft.ts'
import { TimezonePicker } from './timezone-picker.tsx'

type SetDraft = <K extends keyof JobDraft>(key: K, value: JobDraft[K]) => void
type ErrorFor = (field: string) => string | null

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
          onChange={(e) => set('runAs', e.target.value as JobDraft['runAs'])}
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

/** Catch-up, overlap, retries and timeout: sensible defaults, tucked away until needed. */
export function AdvancedFields({
  draft,
  set,
  errorFor,
  defaultOpen,
}: {
  draft: JobDraft
  set: SetDraft
  errorFor: ErrorFor
  defaultOpen?: boolean
}) {
  const open = defaultOpen || ['catchUp', 'overlap', 'retries', 'timeoutMinutes'].some((f) => errorFor(f))
  return (
    <details open={open} className="group rounded-lg border border-stone-200 dark:border-stone-800">
      <summary className="flex cursor-pointer items-center gap-2 px-4 py-2.5 text-sm font-medium select-none">
        <ChevronRight className="size-4 transition-transform group-open:rotate-90" aria-hidden /> Advanced
        <span className="font-normal text-stone-500">catch-up, overlap, retries, timeout</span>
      </summary>
      <div className="grid gap-4 border-t border-stone-200 px-4 py-4 sm:grid-cols-2 dark:border-stone-800">
        <Field label="After downtime" error={errorFor('catchUp')}>
          {({ id, describedBy, invalid }) => (
            <select
              id={id}
              name="catchUp"
              value={draft.catchUp}
              onChange={(e) => set('catchUp', e.target.value as JobDraft['catchUp'])}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              className={inputClass}
            >
              <option value="latest">Run the latest missed slot once</option>
              <option value="skip">Skip missed slots</option>
            </select>
          )}
        </Field>
        <Field label="If still running" error={errorFor('overlap')}>
          {({ id, describedBy, invalid }) => (
            <select
              id={id}
              name="overlap"
              value={draft.overlap}
              onChange={(e) => set('overlap', e.target.value as JobDraft['overlap'])}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              className={inputClass}
            >
              <option value="skip">Skip the new slot</option>
              <option value="queue">Queue it after the running one</option>
            </select>
          )}
        </Field>
        <Field label="Retries" error={errorFor('retries')} hint="0–5, backoff 30 s, 1, 5, 15, 60 min">
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              name="retries"
              type="number"
              min={0}
              max={5}
              value={draft.retries}
              onChange={(e) => set('retries', e.target.value)}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              className={inputClass}
            />
          )}
        </Field>
        <Field label="Timeout (minutes)" error={errorFor('timeoutMinutes')} hint="1–60">
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              name="timeoutMinutes"
              type="number"
              min={1}
              max={60}
              value={draft.timeoutMinutes}
              onChange={(e) => set('timeoutMinutes', e.target.value)}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              className={inputClass}
            />
          )}
        </Field>
      </div>
    </details>
  )
}
