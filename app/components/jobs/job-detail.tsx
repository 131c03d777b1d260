import { ArrowLeft, Pause, Play } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, useFetcher } from 'react-router'
import { toast } from 'sonner'
import { Button } from '#app/components/ui/button.tsx'
import { ConfirmDeleteDialog } from '#app/components/ui/confirm-delete-dialog.tsx'
import type { ActionData } from '#app/lib/action-errors.ts'
import type { AuditEntry, JobFormSpec, JobLike } from '#app/lib/job-types.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import { useConfirmLeave } from '#app/lib/use-confirm-leave.ts'
import { AuditTrail } from './audit-trail.tsx'
import { PausedChip, ScopeBadge } from './job-chips.tsx'
import { changedFields, draftOf as draftFrom, type JobDraft } from './job-draft.ts'
import { JobEditor } from './job-editor.tsx'
import { JobReadOnly } from './job-readonly.tsx'
import { JobSidePanel } from './job-side-panel.tsx'
import { RunHistory } from './run-history.tsx'

type Props = {
  job: JobLike
  audit: AuditEntry[]
  runs: unknown[]
  me: { userId: string; isAdmin: boolean }
  form: JobFormSpec
}
type Base = { version: number; draft: JobDraft }

const savedJob = (data: ActionData | undefined) =>
  data?.ok ? (data.data as { job?: JobLike } | undefined)?.job : undefined

/**
 * The job page. It remembers the version the person started editing from ("base") and sends it
 * as If-Match, so a save never overwrites someone else's change unseen: a 409 keeps the text
 * and explains. Its own saves and pauses move the base forward.
 */
export function JobDetail({ job, audit, runs, me, form }: Props) {
  const draftOf = (j: JobLike) => draftFrom(j, form.fields)
  const hydrated = useHydrated()
  const save = useFetcher<ActionData>()
  const toggle = useFetcher<ActionData>()
  const [base, setBase] = useState<Base>(() => ({ version: job.version, draft: draftOf(job) }))
  const [draft, setDraft] = useState<JobDraft>(base.draft)
  const [handled, setHandled] = useState<{ save?: ActionData; toggle?: ActionData }>({})
  const changes = changedFields(base.draft, draft)
  const dirty = Object.keys(changes).length > 0

  // Adopt the outcome of our own requests once (React's "adjust state while rendering" pattern).
  if (save.state === 'idle' && save.data && save.data !== handled.save) {
    setHandled((h) => ({ ...h, save: save.data }))
    const saved = savedJob(save.data)
    if (saved) {
      setBase({ version: saved.version, draft: draftOf(saved) })
      setDraft(draftOf(saved))
    }
  }
  if (toggle.state === 'idle' && toggle.data && toggle.data !== handled.toggle) {
    setHandled((h) => ({ ...h, toggle: toggle.data }))
    const saved = savedJob(toggle.data)
    if (saved) setBase((b) => ({ ...b, version: saved.version }))
  }
  // Someone else's change with nothing of ours to lose: just show it.
  const idle = save.state === 'idle' && toggle.state === 'idle'
  if (idle && !dirty && job.version > base.version) {
    setBase({ version: job.version, draft: draftOf(job) })
    setDraft(draftOf(job))
  }

  useEffect(() => {
    if (save.state === 'idle' && save.data?.ok) toast.success('Saved')
  }, [save.state, save.data])
  useEffect(() => {
    if (toggle.state !== 'idle' || !toggle.data) return
    if (toggle.data.ok) toast.success((savedJob(toggle.data)?.enabled ?? true) ? 'Resumed' : 'Paused')
    else
      toast.error(
        toggle.data.error.status === 409
          ? 'Someone else changed this job; the page now shows their version.'
          : toggle.data.error.message,
      )
  }, [toggle.state, toggle.data])

  useConfirmLeave(dirty && save.state === 'idle', 'Discard your unsaved changes to this job?')

  const conflict = Boolean(
    save.data && !save.data.ok && save.data.error.status === 409 && base.version < job.version,
  )
  const running = job.enabled && !job.suspendedReason
  const pendingEnabled = toggle.formData?.get('enabled')
  const showResume = pendingEnabled ? pendingEnabled === 'false' : !running
  const becomesCreator =
    'instructions' in changes &&
    draft.runAs === 'creator' &&
    job.runAs === 'creator' &&
    job.createdBy.id !== me.userId

  return (
    <>
      <Link
        to="/jobs"
        className="mb-3 inline-flex items-center gap-1 text-sm text-stone-500 hover:text-stone-800 dark:hover:text-stone-200"
      >
        <ArrowLeft className="size-4" aria-hidden /> Jobs
      </Link>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="font-mono text-2xl font-semibold tracking-tight">{job.name}</h1>
            <ScopeBadge scope={job.scope} />
            <PausedChip enabled={job.enabled} suspendedReason={job.suspendedReason} />
          </div>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{job.description}</p>
        </div>
        {job.canEdit ? (
          <div className="flex items-center gap-2">
            <Button
              variant="secondary"
              disabled={!hydrated || toggle.state !== 'idle'}
              onClick={() =>
                void toggle.submit(
                  { intent: 'toggle', enabled: String(showResume), version: String(base.version) },
                  { method: 'post' },
                )
              }
            >
              {showResume ? (
                <Play className="size-4" aria-hidden />
              ) : (
                <Pause className="size-4" aria-hidden />
              )}
              {showResume ? 'Resume' : 'Pause'}
            </Button>
            <ConfirmDeleteDialog
              trigger={{ variant: 'secondary', text: 'Delete', className: 'text-red-700 dark:text-red-400' }}
              title={`Delete “${job.name}”?`}
              description={
                <>
                  The job stops running and its file <code>jobs/{job.name}.md</code> goes away. Its audit
                  trail is kept. This cannot be undone.
                </>
              }
              confirm="Delete job"
            />
          </div>
        ) : null}
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          {job.canEdit ? (
            <JobEditor
              fields={form.fields}
              draft={draft}
              setDraft={setDraft}
              dirty={dirty}
              saving={save.state !== 'idle'}
              result={save.data}
              conflict={conflict}
              showRunAs={job.scope === 'shared' && me.isAdmin}
              becomesCreator={becomesCreator}
              onSave={() =>
                void save.submit(
                  { intent: 'save', version: String(base.version), ...changes },
                  { method: 'post' },
                )
              }
              onDiscard={() => setDraft(base.draft)}
              onLoadLatest={() => {
                setBase({ version: job.version, draft: draftOf(job) })
                setDraft(draftOf(job))
              }}
            />
          ) : (
            <JobReadOnly job={job} fields={form.fields} />
          )}
          <RunHistory jobId={job.id} runs={runs} />
          <AuditTrail entries={audit} labels={form.labels} />
        </div>
        <JobSidePanel job={job} />
      </div>
    </>
  )
}
