import { ToggleGroup } from 'radix-ui'
import { useEffect, useRef, useState } from 'react'
import { Field, inputClass } from '#app/components/ui/field.tsx'
import { cn } from '#app/lib/cn.ts'
import { presetFor, SCHEDULE_PRESETS } from '#app/lib/schedule-presets.ts'
import { useSchedulePreview } from '#app/lib/use-schedule-preview.ts'
import { SCHEDULE_PREVIEW_ERROR_ID, SchedulePreviewPanel } from './schedule-preview.tsx'

type Props = { value: string; onChange: (cron: string) => void; timezone: string; error?: string | null }

const chip =
  'rounded-full border px-3 py-1 text-xs font-medium transition-colors border-stone-300 text-stone-700 hover:bg-stone-100 data-[state=on]:border-brand-600 data-[state=on]:bg-brand-50 data-[state=on]:text-brand-700 dark:border-stone-700 dark:text-stone-300 dark:hover:bg-stone-800 dark:data-[state=on]:border-brand-500 dark:data-[state=on]:bg-brand-900/40 dark:data-[state=on]:text-brand-200'

/**
 * The schedule: one-click presets, the cron expression itself (posted as `schedule`), and a live
 * preview of what it means. Editing the expression by hand selects "Custom".
 */
export function ScheduleField({ value, onChange, timezone, error }: Props) {
  const input = useRef<HTMLInputElement>(null)
  const preview = useSchedulePreview(value, timezone)
  const preset = presetFor(value)
  // An invalid schedule is explained once: by the live preview when it has judged this very text
  // (the server's answer to a submit would say the same), else under the field.
  const shown =
    preview.state === 'done' ? preview.preview : preview.state === 'checking' ? preview.last : null
  const previewError = shown?.valid === false
  // The server's answer is about the text it was sent: once that text is changed, it is old news
  // and the preview speaks for the new one. The text sent is taken at the submit, not when the
  // answer arrives: on a slow connection the box may hold new text by then.
  const [sent, setSent] = useState<string | null>(null)
  useEffect(() => {
    const form = input.current?.form
    const onSubmit = () => setSent(input.current?.value ?? null)
    form?.addEventListener('submit', onSubmit)
    return () => form?.removeEventListener('submit', onSubmit)
  }, [])
  const [answered, setAnswered] = useState({ error, value })
  if (answered.error !== error) setAnswered({ error, value: sent ?? value })
  const fieldError = previewError || value !== answered.value ? null : error
  return (
    <div className="space-y-3">
      <ToggleGroup.Root
        type="single"
        value={preset}
        aria-label="Schedule presets"
        className="flex flex-wrap gap-2"
        onValueChange={(id) => {
          const found = SCHEDULE_PRESETS.find((p) => p.id === id)
          if (found) onChange(found.cron)
          else if (id === 'custom') input.current?.focus()
        }}
      >
        {SCHEDULE_PRESETS.map((p) => (
          <ToggleGroup.Item key={p.id} value={p.id} className={chip}>
            {p.label}
          </ToggleGroup.Item>
        ))}
        <ToggleGroup.Item value="custom" className={chip}>
          Custom
        </ToggleGroup.Item>
      </ToggleGroup.Root>
      <Field
        label="Schedule"
        error={fieldError}
        hint={
          <>
            Cron: minute hour day-of-month month day-of-week, e.g. <code>30 8 * * 1-5</code>, or @hourly,
            @daily…; once: <code>at 2026-12-24T09:00</code>; an interval: <code>every 90m</code>
          </>
        }
      >
        {({ id, describedBy, invalid }) => (
          <input
            ref={input}
            id={id}
            name="schedule"
            required
            spellCheck={false}
            autoComplete="off"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            aria-invalid={invalid || previewError}
            aria-describedby={previewError ? SCHEDULE_PREVIEW_ERROR_ID : describedBy}
            className={cn(inputClass, 'font-mono')}
          />
        )}
      </Field>
      <SchedulePreviewPanel preview={preview} timezone={timezone} />
    </div>
  )
}
