import { AlertCircle, Hammer, History } from 'lucide-react'
import { Badge, Card } from '#app/components/ui/card.tsx'
import { RelativeTime } from '#app/components/ui/relative-time.tsx'
import {
  BootstrapSteps,
  type BootstrapView,
  currentCommands,
  elapsedText,
  PHASE_LABELS,
  useNow,
} from './bootstrap-steps.tsx'
import { useLiveBootstrap } from './use-live-bootstrap.ts'

const STATUS = {
  running: { label: 'Building', tone: 'brand' },
  ready: { label: 'Ready', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
} as const

/** The one line a screen reader hears as the build moves on. */
function statusLine(record: BootstrapView, took: string): string {
  if (record.status === 'running') {
    const now = currentCommands(record)
    return `${PHASE_LABELS[record.phase]}${now ? `: ${now}` : ''}…`
  }
  if (record.status === 'failed') return `Failed while ${PHASE_LABELS[record.phase].toLowerCase()}`
  if (record.restoredFrom === 'snapshot')
    return `Restored from the snapshot in ${took}: setup did not run again`
  const n = record.steps.length
  return `Built in ${took}${n ? ` (${n} setup step${n === 1 ? '' : 's'})` : ''}`
}

/** Why it failed; a failed step shows its own output below, so only the first line is kept. */
function failureText(record: BootstrapView): string {
  const error = record.error ?? ''
  return record.steps.some((s) => s.status === 'failed') ? error.split('\n')[0]! : error
}

/**
 * How the environment's folder was built from its definition, live while it builds: phase, each
 * setup step with its time and output, a failed step's output and the error, or that it came from
 * a snapshot.
 */
export function BootstrapPanel({
  initial,
  name,
  scope,
}: {
  initial: BootstrapView | null
  name: string
  scope: string
}) {
  const { record, error, waiting } = useLiveBootstrap(initial, name, scope)
  const now = useNow(record?.status === 'running')
  const took = record ? elapsedText(record.startedAt, record.finishedAt, now) : ''
  return (
    <Card className="p-5" role="region" data-testid="bootstrap-panel" aria-labelledby="bootstrap-heading">
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <h2 id="bootstrap-heading" className="flex items-center gap-2 font-semibold">
          <Hammer className="size-4 text-stone-600 dark:text-stone-400" aria-hidden /> Build
        </h2>
        {record ? <Badge tone={STATUS[record.status].tone}>{STATUS[record.status].label}</Badge> : null}
        {record?.restoredFrom === 'snapshot' ? (
          <Badge tone="blue">
            <History className="size-3" aria-hidden /> Restored from snapshot
          </Badge>
        ) : null}
        {record ? (
          <span className="ml-auto text-xs text-stone-600 dark:text-stone-400">
            started <RelativeTime value={record.startedAt} />
            {took ? <span className="tabular-nums"> · {took}</span> : null}
            {record.packageManager ? ` · ${record.packageManager}` : ''}
          </span>
        ) : null}
      </div>
      {!record ? (
        <p className="text-sm text-stone-600 dark:text-stone-400" aria-live="polite">
          {waiting
            ? 'Checking whether the folder needs building…'
            : 'Not built yet. The first command, here or by the agent, builds the folder from its definition: source, skills, then setup.'}
        </p>
      ) : (
        <>
          <p
            className="text-sm text-stone-700 dark:text-stone-300"
            role="status"
            aria-live="polite"
            data-testid="bootstrap-status"
          >
            {statusLine(record, took)}
          </p>
          {record.status === 'failed' && record.error ? (
            <pre
              role="alert"
              className="mt-2 max-h-48 overflow-auto rounded-md bg-red-50 p-2 font-mono text-xs whitespace-pre-wrap text-red-800 dark:bg-red-950 dark:text-red-300"
            >
              {failureText(record)}
            </pre>
          ) : null}
          {record.steps.length > 0 ? (
            record.status === 'ready' ? (
              <details className="mt-2">
                <summary className="cursor-pointer text-sm text-stone-600 dark:text-stone-400">
                  Setup steps
                </summary>
                <BootstrapSteps record={record} now={now} />
              </details>
            ) : (
              <div className="mt-2">
                <BootstrapSteps record={record} now={now} />
              </div>
            )
          ) : null}
        </>
      )}
      {error ? (
        <p role="alert" className="mt-2 flex items-center gap-1.5 text-xs text-amber-800 dark:text-amber-300">
          <AlertCircle className="size-3.5 shrink-0" aria-hidden /> Could not refresh the progress: {error}.
          Trying again.
        </p>
      ) : null}
    </Card>
  )
}
