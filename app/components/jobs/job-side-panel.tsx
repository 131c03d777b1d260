import { Card } from '#app/components/ui/card.tsx'
import type { JobLike } from '#app/lib/job-types.ts'
import { DeniedChip, PausedChip, RunStatusChip, ScopeBadge } from './job-chips.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-2 text-sm">
      {/* The label keeps its line; a long value (a person's full name, a file name) wraps instead. */}
      <dt className="shrink-0 text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="min-w-0 text-right">{children}</dd>
    </div>
  )
}

/** Run state (what the scheduler wrote) and identity (who, where), beside the definition. */
export function JobSidePanel({
  job,
  part,
}: {
  job: JobLike & { extra?: Record<string, unknown> }
  /** One card only (the job page places them around the run history); both by default. */
  part?: 'status' | 'details'
}) {
  const active = job.enabled && !job.suspendedReason
  const extra = Object.entries(job.extra ?? {})
  return (
    <div className="space-y-4">
      {part === 'details' ? null : (
        <Card className="p-5">
          <h2 className="mb-1 font-semibold">Status</h2>
          <dl className="divide-y divide-stone-100 dark:divide-stone-800">
            <Row label="State">
              {active ? (
                <span className="font-medium text-emerald-700 dark:text-emerald-400">Enabled</span>
              ) : (
                <PausedChip enabled={job.enabled} suspendedReason={job.suspendedReason} />
              )}
            </Row>
            <Row label="Next run">
              {active ? <RelativeTime value={job.nextRun} timeZone={job.timezone} /> : '—'}
            </Row>
            <Row label="Last run">
              <span className="inline-flex flex-wrap items-center justify-end gap-2" data-testid="last-run">
                <RelativeTime value={job.lastRun} timeZone={job.timezone} empty="Never" />
                <RunStatusChip status={job.lastStatus} />
                <DeniedChip count={job.lastDeniedCommands} />
              </span>
            </Row>
          </dl>
          {job.lastError ? (
            <pre className="mt-2 max-h-32 overflow-auto rounded-md bg-red-50 p-2 text-xs whitespace-pre-wrap text-red-800 dark:bg-red-950 dark:text-red-300">
              {job.lastError}
            </pre>
          ) : null}
        </Card>
      )}
      {part === 'status' ? null : (
        <Card className="p-5">
          <h2 className="mb-1 font-semibold">Details</h2>
          <dl className="divide-y divide-stone-100 dark:divide-stone-800">
            <Row label="Scope">
              <ScopeBadge scope={job.scope} />
            </Row>
            <Row label="Creator">
              <span className="block font-medium">{job.createdBy.name}</span>
              <span className="block text-xs text-stone-600 dark:text-stone-400">{job.createdBy.email}</span>
            </Row>
            <Row label="Runs as">{job.runAs === 'shared' ? 'Organisation key' : job.createdBy.name}</Row>
            <Row label="Created">
              <RelativeTime value={job.createdAt} />
            </Row>
            <Row label="Updated">
              <RelativeTime value={job.updatedAt} />
            </Row>
            <Row label="Version">{job.version}</Row>
            <Row label="File">
              <code className="text-xs">jobs/{job.name}.md</code>
            </Row>
          </dl>
          {extra.length > 0 ? (
            <div className="mt-2">
              <h3 className="text-xs font-medium text-stone-600 dark:text-stone-400">Extra keys</h3>
              <pre className="mt-1 max-h-40 overflow-auto rounded-md bg-stone-100 p-2 text-xs dark:bg-stone-800">
                {JSON.stringify(Object.fromEntries(extra), null, 2)}
              </pre>
            </div>
          ) : null}
        </Card>
      )}
    </div>
  )
}
