import { ArrowLeft } from 'lucide-react'
import { Link, useRevalidator } from 'react-router'
import { MessageParts } from '#app/components/chat/message-parts.tsx'
import { DeniedChip } from '#app/components/jobs/job-chips.tsx'
import { Badge, Card } from '#app/components/ui/card.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import { describeRunStatus } from '#app/lib/job-status.ts'
import { useRevalidateWhile } from '#app/lib/use-revalidate-while.ts'
import { describeTrigger, formatUsd } from './format.ts'
import { RunActions } from './run-actions.tsx'
import { RunDuration } from './runs-table.tsx'
import { isActive, type RunLike, type TranscriptEntry } from './types.ts'
import { Deliveries } from './deliveries.tsx'
import { FoldedInstructions, wordsIfLong } from './folded-instructions.tsx'
import type { DeliveryAttemptView } from '#server/integrations/views.ts'

const ROLE_LABEL = { user: 'Instructions', assistant: 'Agent', tool: 'Tool', system: 'System' } as const

type Props = {
  run: RunLike
  transcript: TranscriptEntry[]
  job: { id: string; name: string; timezone: string; canEdit: boolean }
  deliveries?: DeliveryAttemptView[]
}

function Fact({ label, children, wide }: { label: string; children: React.ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'col-span-2 min-w-0' : 'min-w-0'}>
      <dt className="text-xs text-stone-600 dark:text-stone-400">{label}</dt>
      {/* Long values (a provider:model id) wrap at any character rather than being cut off. */}
      <dd className="text-sm font-medium [overflow-wrap:anywhere]">{children}</dd>
    </div>
  )
}

/** Reloads the page's data every 2 s while the run is queued or running (the transcript grows). */
function useLiveRun(run: RunLike) {
  const revalidator = useRevalidator()
  useRevalidateWhile(isActive(run))
  return () => void revalidator.revalidate()
}

/** One run on its own page: header (status, model, tokens, cost, duration), actions, transcript. */
export function RunPage({ run, transcript, job, deliveries = [] }: Props) {
  const refresh = useLiveRun(run)
  const status = describeRunStatus(run.status)
  const n = (v: number | null) => (v === null ? '—' : v.toLocaleString('en-GB'))
  return (
    <>
      <Link
        to={`/jobs/${encodeURIComponent(job.id)}`}
        className="mb-3 inline-flex items-center gap-1 text-sm text-stone-600 dark:text-stone-400 hover:text-stone-800 dark:hover:text-stone-200"
      >
        <ArrowLeft className="size-4" aria-hidden /> {job.name}
      </Link>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold tracking-tight">
            Run <Badge tone={status.tone}>{status.label}</Badge>
            <DeniedChip count={run.deniedCommands} />
          </h1>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            {describeTrigger(run)} · {run.trigger === 'manual' ? 'requested' : 'slot'}{' '}
            <RelativeTime value={run.scheduledFor} timeZone={job.timezone} />
          </p>
        </div>
        {job.canEdit ? <RunActions run={run} onChange={refresh} /> : null}
      </div>
      <Card className="mb-4 p-5" data-testid="run-header">
        {/* The model's id takes two columns: in one, "anthropic:claude-sonnet-5-5" breaks in two.
            Columns by the main column's width (the open chat narrows it), not the window's. */}
        <dl className="grid grid-cols-2 gap-3 @lg:grid-cols-3 @4xl:grid-cols-7">
          <Fact label="Model" wide>
            {run.usage.model ?? '—'}
          </Fact>
          <Fact label="Input tokens">{n(run.usage.inputTokens)}</Fact>
          <Fact label="Output tokens">{n(run.usage.outputTokens)}</Fact>
          <Fact label="Cost">{run.usage.costUsd === null ? '—' : `≈ ${formatUsd(run.usage.costUsd)}`}</Fact>
          <Fact label="Duration">
            <RunDuration run={run} />
          </Fact>
          <Fact label="Started">
            <RelativeTime value={run.startedAt} timeZone={job.timezone} empty="Not yet" />
          </Fact>
        </dl>
        {run.reason ? (
          <p className="mt-3 text-sm text-stone-600 dark:text-stone-400" data-testid="run-reason">
            {reasonLabel(run.status)} {run.reason}
          </p>
        ) : null}
      </Card>
      {run.error ? (
        <p
          role="alert"
          className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-300"
        >
          {run.error}
        </p>
      ) : null}
      <Deliveries attempts={deliveries} timeZone={job.timezone} />
      <Card className="p-5 text-sm" data-testid="transcript">
        <h2 className="mb-3 font-semibold">Transcript</h2>
        {transcript.length === 0 ? (
          <p className="text-stone-600 dark:text-stone-400">
            {isActive(run) ? 'The run has not written anything yet.' : 'This run has no transcript.'}
          </p>
        ) : (
          <ol className="space-y-4">
            {transcript.map((message) => (
              <li key={message.id}>
                <p className="mb-1 text-xs font-semibold tracking-wide text-stone-600 dark:text-stone-400 uppercase">
                  {ROLE_LABEL[message.role]}
                </p>
                <TranscriptParts role={message.role} parts={message.parts} />
              </li>
            ))}
          </ol>
        )}
        {isActive(run) ? (
          <p className="mt-4 text-stone-600 dark:text-stone-400">
            The run is still going; this page updates by itself.
          </p>
        ) : null}
      </Card>
    </>
  )
}

/** A message's parts; long instructions fold to their first lines (decision 0486). */
function TranscriptParts({ role, parts }: { role: TranscriptEntry['role']; parts: readonly unknown[] }) {
  const words = role === 'user' ? wordsIfLong(parts) : null
  return words === null ? <MessageParts parts={parts} /> : <FoldedInstructions parts={parts} words={words} />
}

/** What the run's reason explains, in words: why it ran, why it waits or was skipped, what stopped it. */
function reasonLabel(status: string): string {
  if (status === 'skipped') return 'Why it was skipped:'
  if (status === 'missed') return 'Why it was missed:'
  if (status === 'queued') return 'Why it waits:'
  if (['error', 'timed_out', 'interrupted', 'cancelled'].includes(status)) return 'What happened:'
  return status === 'running' ? 'Why it runs:' : 'Why it ran:'
}
