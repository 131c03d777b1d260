import { Eye } from 'lucide-react'
import { Card } from '#app/components/ui/card.tsx'
import type { JobFormField, JobLike } from '#app/lib/job-types.ts'

/** A list-of-names field: null is what the field says it means (`unset`), [] means none. */
function listText(value: unknown, unset: string): string {
  if (value == null) return unset
  return Array.isArray(value) && value.length > 0 ? value.join(', ') : 'None'
}

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-stone-600 dark:text-stone-400 uppercase">
        {label}
      </dt>
      <dd className="mt-1 text-sm">{children}</dd>
    </div>
  )
}

/**
 * The definition for someone who may see but not change the job: plain text, no inert form
 * that would only fail on save.
 */
export function JobReadOnly({ job, fields }: { job: JobLike; fields: readonly JobFormField[] }) {
  return (
    <Card className="p-6">
      <p
        className="mb-5 flex items-center gap-2 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-800 dark:bg-sky-950 dark:text-sky-300"
        data-testid="read-only-notice"
      >
        <Eye className="size-4 shrink-0" aria-hidden /> You can view this shared job. Only its creator and the
        organisation’s admins can change it.
      </p>
      <dl className="space-y-5">
        <Item label="Prompt">
          <pre
            className="rounded-lg bg-stone-50 p-3 font-mono text-[13px] leading-relaxed whitespace-pre-wrap dark:bg-stone-950/50"
            data-testid="instructions"
          >
            {job.instructions}
          </pre>
        </Item>
        <Item label="Schedule">
          {job.description}{' '}
          <code className="ml-1 text-xs text-stone-600 dark:text-stone-400">{job.schedule}</code>
        </Item>
        <Item label="Time zone">{job.timezone}</Item>
        <div className="grid gap-5 sm:grid-cols-2">
          {fields.map((f) =>
            f.widget === 'custom' ? null : (
              <Item key={f.key} label={f.label}>
                {f.widget === 'select'
                  ? (f.options.find(([value]) => value === job[f.key])?.[1] ?? String(job[f.key]))
                  : f.widget === 'list'
                    ? listText(job[f.key], f.unset)
                    : String(job[f.key] ?? '—')}
              </Item>
            ),
          )}
        </div>
      </dl>
    </Card>
  )
}
