import { Ban, CalendarClock, Check, Clock, FileText, Loader2, TriangleAlert } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import type { ClockOutput, ManageJobsInput, ManageJobsOutput, ToolPart, WorkspaceOutput } from './types.ts'

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1)

const VERBS: Record<string, string> = {
  create: 'Creating',
  update: 'Updating',
  list: 'Listing',
  delete: 'Deleting',
}

/** "Created job <morning-digest>, every weekday at 07:00 (Europe/Berlin)", the name linking to the job. */
function JobResult({ output }: { output: ManageJobsOutput }) {
  if (!output.ok) {
    return (
      <span className="text-red-700 dark:text-red-400">
        Could not {output.action} the job: {output.error.message}
        {output.error.status ? ` (${output.error.status})` : ''}
      </span>
    )
  }
  if (output.action === 'list') {
    return (
      <details>
        <summary className="cursor-pointer">Looked up jobs: {output.summary}</summary>
        <ul className="mt-1 space-y-0.5 pl-4">
          {output.jobs.map((job) => (
            <li key={job.id}>
              <Link to={job.url} className="font-medium underline-offset-2 hover:underline">
                {job.name}
              </Link>{' '}
              <span className="text-stone-500">{lowerFirst(job.description)}</span>
            </li>
          ))}
        </ul>
      </details>
    )
  }
  if (output.action === 'delete')
    return (
      <span>
        Deleted job <em>{output.job.name}</em>
      </span>
    )
  return (
    <span>
      {output.action === 'create' ? 'Created' : 'Updated'} job{' '}
      <Link to={output.job.url} className="font-medium italic underline underline-offset-2">
        {output.job.name}
      </Link>
      , {lowerFirst(output.job.description)}
      {output.job.enabled ? '' : ' (paused)'}
    </span>
  )
}

/** The confirmation a delete waits for; the person's answer goes back to the server with their next request. */
function ConfirmDelete({
  part,
  onAnswer,
}: {
  part: ToolPart
  onAnswer?: (id: string, approved: boolean) => void
}) {
  const input = (part.input ?? {}) as ManageJobsInput
  const target = input.name ?? input.id ?? 'this job'
  return (
    <div
      role="group"
      aria-label={`Confirm deleting ${target}`}
      className="rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950"
    >
      <p className="font-medium">Delete job {target}?</p>
      <p className="mt-0.5 text-stone-600 dark:text-stone-400">This removes the job and its run history.</p>
      <div className="mt-2 flex gap-2">
        <Button
          size="sm"
          variant="danger"
          onClick={() => onAnswer?.(part.approval!.id, true)}
          disabled={!onAnswer}
        >
          Delete job
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => onAnswer?.(part.approval!.id, false)}
          disabled={!onAnswer}
        >
          Keep it
        </Button>
      </div>
    </div>
  )
}

function describeOther(name: string, part: ToolPart): string {
  const output = part.output as WorkspaceOutput | ClockOutput | undefined
  if (!output) return name === 'clock' ? 'Checking the time…' : `Using ${name}…`
  if (!output.ok) return `${name} failed: ${output.error.message}`
  if (name === 'clock' && 'local' in output) return `Checked the time: ${output.local} (${output.timezone})`
  return 'summary' in output ? output.summary : `Used ${name}`
}

/**
 * One tool call of the agent, as a readable step: what it is doing, what came of it (with a link
 * to a job it made), or the confirmation it is waiting for.
 */
export function ToolStep({
  part,
  onAnswer,
}: {
  part: ToolPart
  onAnswer?: (id: string, approved: boolean) => void
}) {
  const name = part.type.replace(/^tool-/, '')
  const input = (part.input ?? {}) as ManageJobsInput
  let icon = <Loader2 className="size-3.5 animate-spin" aria-hidden />
  let body: React.ReactNode
  if (part.state === 'approval-requested' && part.approval)
    return <ConfirmDelete part={part} onAnswer={onAnswer} />
  if (
    part.state === 'output-denied' ||
    (part.state === 'approval-responded' && part.approval?.approved === false)
  ) {
    icon = <Ban className="size-3.5" aria-hidden />
    body = `Not done: ${input.action ?? name} ${input.name ?? ''} was not confirmed`.replace(/\s+/g, ' ')
  } else if (part.state === 'output-error') {
    icon = <TriangleAlert className="size-3.5 text-red-600" aria-hidden />
    body = (
      <span className="text-red-700 dark:text-red-400">
        {name} failed: {part.errorText}
      </span>
    )
  } else if (part.state === 'output-available') {
    const failed = (part.output as { ok?: boolean } | undefined)?.ok === false
    icon = failed ? (
      <TriangleAlert className="size-3.5 text-red-600" aria-hidden />
    ) : name === 'manage-jobs' ? (
      <CalendarClock className="size-3.5 text-brand-600" aria-hidden />
    ) : name === 'clock' ? (
      <Clock className="size-3.5" aria-hidden />
    ) : name === 'workspace' ? (
      <FileText className="size-3.5" aria-hidden />
    ) : (
      <Check className="size-3.5" aria-hidden />
    )
    body =
      name === 'manage-jobs' ? (
        <JobResult output={part.output as ManageJobsOutput} />
      ) : (
        describeOther(name, part)
      )
  } else {
    body =
      name === 'manage-jobs'
        ? `${VERBS[input.action ?? ''] ?? 'Working on'} job${input.name ? ` ${input.name}` : 's'}…`
        : describeOther(name, part)
  }
  return (
    <div
      data-testid="tool-step"
      data-tool={name}
      className="flex items-start gap-2 rounded-lg border border-stone-200 bg-stone-50 px-3 py-2 dark:border-stone-800 dark:bg-stone-900"
    >
      <span className="mt-0.5 shrink-0 text-stone-500">{icon}</span>
      <div className="min-w-0 flex-1">{body}</div>
    </div>
  )
}
