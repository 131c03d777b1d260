import { ArrowLeft, Pause, Play } from 'lucide-react'
import { useEffect } from 'react'
import { Tabs } from 'radix-ui'
import { Link, useFetcher, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { Button } from '#app/components/ui/button.tsx'
import { ConfirmDeleteDialog } from '#app/components/ui/confirm-delete-dialog.tsx'
import type { ActionData } from '#app/lib/action-errors.ts'
import type { AuditEntry, JobFormSpec, JobLike } from '#app/lib/job-types.ts'
import { useHydrated } from '#app/lib/hydrated.ts'
import { useConfirmLeave } from '#app/lib/use-confirm-leave.tsx'
import { AuditTrail } from './audit-trail.tsx'
import { PausedChip, ScopeBadge } from './job-chips.tsx'
import { changedFields, draftOf as draftFrom } from './job-draft.ts'
import { isDirty, savedJob, useJobEdit } from './job-edit-state.ts'
import { JobEditor } from './job-editor.tsx'
import { JobReadOnly } from './job-readonly.tsx'
import { JobSidePanel } from './job-side-panel.tsx'
import { TransferOfferCard } from './transfer-offer.tsx'
import { TransferOwner } from './transfer-owner.tsx'
import type { Person } from '#server/jobs/transfer.ts'
import type { TransferOfferView } from '#server/jobs/transfer-offers.ts'
import { RunHistory } from './run-history.tsx'

type Props = {
  job: JobLike
  audit: AuditEntry[]
  runs: unknown[]
  me: { userId: string; isAdmin: boolean }
  form: JobFormSpec
  /** Members an admin may hand this shared job to (empty: no transfer control). */
  transferTargets?: readonly Person[]
  /** The member this shared job is offered to, waiting for them to accept (decision 0512). */
  transferOffer?: TransferOfferView | null
}

/** The page's sections; runs lead, the definition (the edit form) and the audit trail are a tab away. */
const TABS = [
  ['runs', 'Runs'],
  ['definition', 'Definition'],
  ['audit', 'Audit trail'],
] as const
type Tab = (typeof TABS)[number][0]
const isTab = (value: string | null): value is Tab => TABS.some(([t]) => t === value)

/**
 * The job page. It remembers the version the person started editing from ("base") and sends it
 * as If-Match, so a save never overwrites someone else's change unseen: a 409 keeps the text
 * and explains. Its own saves and pauses move the base forward (job-edit-state.ts).
 */
export function JobDetail({ job, audit, runs, me, form, transferTargets = [], transferOffer = null }: Props) {
  const draftOf = (j: JobLike) => draftFrom(j, form.fields)
  const hydrated = useHydrated()
  const [params, setParams] = useSearchParams()
  const requested = params.get('tab')
  const tab: Tab = isTab(requested) ? requested : 'runs'
  const save = useFetcher<ActionData>()
  const toggle = useFetcher<ActionData>()
  const { state: edit, dispatch } = useJobEdit(job, draftOf, save, toggle)
  const { base, draft } = edit
  const changes = changedFields(base.draft, draft)
  const dirty = isDirty(edit)

  useEffect(() => {
    if (save.state === 'idle' && save.data?.ok) toast.success('Saved')
  }, [save.state, save.data])
  useEffect(() => {
    if (toggle.state !== 'idle' || !toggle.data) return
    if (toggle.data.ok)
      toast.success((savedJob<JobLike>(toggle.data)?.enabled ?? true) ? 'Resumed' : 'Paused')
    else
      toast.error(
        toggle.data.error.status === 409
          ? 'Someone else changed this job; the page now shows their version.'
          : toggle.data.error.message,
      )
  }, [toggle.state, toggle.data])

  const leaveDialog = useConfirmLeave(
    dirty && save.state === 'idle',
    'Discard your unsaved changes to this job?',
  )

  const conflict = Boolean(
    save.data && !save.data.ok && save.data.error.status === 409 && base.version < job.version,
  )
  const running = job.enabled && !job.suspendedReason
  const pendingEnabled = toggle.formData?.get('enabled')
  const showResume = pendingEnabled ? pendingEnabled === 'false' : !running
  // What the runs are told (instructions, skills, MCP servers): changed by someone else, it is theirs.
  const rewrites = form.promptKeys.filter((key) => key in changes)
  const becomesCreator =
    rewrites.length > 0 &&
    draft.runAs === 'creator' &&
    job.runAs === 'creator' &&
    job.createdBy.id !== me.userId
      ? rewrites.map((key) => (key === 'instructions' ? 'instructions' : form.labels[key])).join(' and ')
      : null

  return (
    <>
      {leaveDialog}
      <Link
        to="/jobs"
        className="mb-3 inline-flex items-center gap-1 text-sm text-stone-600 dark:text-stone-400 hover:text-stone-800 dark:hover:text-stone-200"
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
              busy={toggle.state !== 'idle'}
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
      <TransferOfferCard offer={transferOffer} creator={job.createdBy} version={job.version} me={me} />
      <Tabs.Root
        value={tab}
        onValueChange={(value) =>
          setParams(
            (p) => {
              if (value === 'runs') p.delete('tab')
              else p.set('tab', value)
              return p
            },
            { replace: true, preventScrollReset: true },
          )
        }
      >
        <Tabs.List
          aria-label="Job sections"
          className="mb-4 flex gap-1 border-b border-stone-200 dark:border-stone-800"
        >
          {TABS.map(([value, label]) => (
            <Tabs.Trigger
              key={value}
              value={value}
              disabled={!hydrated}
              className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium text-stone-600 dark:text-stone-400 hover:text-stone-800 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none data-[state=active]:border-stone-900 data-[state=active]:text-stone-900 dark:hover:text-stone-200 dark:data-[state=active]:border-stone-100 dark:data-[state=active]:text-stone-100"
            >
              {value === 'definition' && dirty ? `${label} •` : label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="runs" className="grid gap-6 @4xl:grid-cols-3">
          {/* Narrow (a phone, or beside the open chat): status, history, details; from a 56rem main
              column: history left, status and details right. */}
          <div className="min-w-0 @4xl:col-start-3 @4xl:row-start-1">
            <JobSidePanel job={job} part="status" />
          </div>
          <div className="min-w-0 @4xl:col-span-2 @4xl:col-start-1 @4xl:row-span-2 @4xl:row-start-1">
            <RunHistory jobId={job.id} runs={runs} />
          </div>
          <div className="min-w-0 @4xl:col-start-3 @4xl:row-start-2">
            <JobSidePanel job={job} part="details" />
            <div className="mt-4">
              <TransferOwner owner={job.createdBy} targets={transferTargets} />
            </div>
          </div>
        </Tabs.Content>
        <Tabs.Content value="definition" className="min-w-0 @4xl:max-w-3xl">
          {job.canEdit ? (
            <JobEditor
              fields={form.fields}
              draft={draft}
              setDraft={(update) => dispatch({ type: 'edit', update })}
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
              onDiscard={() => dispatch({ type: 'discard' })}
              onLoadLatest={() => dispatch({ type: 'load', version: job.version, draft: draftOf(job) })}
            />
          ) : (
            <JobReadOnly job={job} fields={form.fields} />
          )}
        </Tabs.Content>
        <Tabs.Content value="audit" className="min-w-0 @4xl:max-w-3xl">
          <AuditTrail entries={audit} labels={form.labels} />
        </Tabs.Content>
      </Tabs.Root>
    </>
  )
}
