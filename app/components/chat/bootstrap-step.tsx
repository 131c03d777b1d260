/**
 * An environment tool call that builds its environment, in the chat: while it runs, the build's
 * phase, its steps (the running one's time ticking and its output tail); once done, one line with
 * what the build took and its steps folded under it (all a saved chat or a run's transcript keeps).
 */
import {
  BootstrapSteps,
  type BootstrapView,
  currentCommands,
  elapsedText,
  PHASE_LABELS,
  useNow,
} from '#app/components/environments/bootstrap-steps.tsx'
import { formatElapsed } from '#app/components/runs/format.ts'
import type { BootstrapProgress, BootstrapSummary } from '#server/agent/tools/bootstrap-progress.ts'

/** The build a preliminary result reports, if it is one. */
export function bootstrappingOf(output: unknown): BootstrapView | null {
  const progress = output as Partial<BootstrapProgress> | undefined
  return progress?.bootstrapping ?? null
}

/** The build summary a final result carries, if the call built its environment. */
export function bootstrapSummaryOf(output: unknown): BootstrapSummary | null {
  return (output as { bootstrap?: BootstrapSummary } | undefined)?.bootstrap ?? null
}

export function BootstrapLive({ record, environment }: { record: BootstrapView; environment?: string }) {
  const now = useNow(true)
  const running = currentCommands(record)
  const elapsed = elapsedText(record.startedAt, undefined, now)
  return (
    <div data-testid="bootstrap-progress">
      <p>
        {/* Only the phase and step are announced: the ticking time would be read out every second. */}
        <span role="status">{`Setting up ${environment ?? 'the environment'}: ${PHASE_LABELS[record.phase].toLowerCase()}${running ? ` (${running})` : ''}`}</span>
        <span className="text-stone-600 dark:text-stone-400 tabular-nums">
          {elapsed ? ` · ${elapsed}` : ''}
        </span>
      </p>
      {record.steps.length > 0 ? <BootstrapSteps record={record} now={now} /> : null}
    </div>
  )
}

function headline(summary: BootstrapSummary): string {
  const took = summary.elapsedMs === null ? '' : ` in ${formatElapsed(summary.elapsedMs)}`
  if (summary.status === 'failed') {
    const failed = summary.steps.find((s) => s.status === 'failed')
    return failed
      ? `Setup failed at ${failed.command} (exit ${failed.exitCode ?? 'none'})${took}`
      : `Building the environment failed while ${PHASE_LABELS[summary.phase ?? 'source'].toLowerCase()}`
  }
  if (summary.restoredFrom) return `Restored the environment from its snapshot${took}`
  const n = summary.steps.length
  return `Built the environment${took}${n ? `: ${n} setup step${n === 1 ? '' : 's'}` : ''}`
}

export function BootstrapSummaryLine({ summary }: { summary: BootstrapSummary }) {
  if (summary.steps.length === 0) {
    return (
      <p className="mt-1 text-xs text-stone-600 dark:text-stone-400" data-testid="bootstrap-summary">
        {headline(summary)}
      </p>
    )
  }
  return (
    <details className="mt-1 text-xs" data-testid="bootstrap-summary">
      <summary className="cursor-pointer text-stone-600 dark:text-stone-400">{headline(summary)}</summary>
      <ul className="mt-1 space-y-0.5 pl-4">
        {summary.steps.map((s) => (
          <li key={`${s.index}.${s.member ?? ''}`} className="flex gap-2">
            <code className="min-w-0 flex-1 font-mono break-all">
              {s.member !== undefined ? '∥ ' : ''}
              {s.command}
            </code>
            <span className="shrink-0 text-stone-600 dark:text-stone-400 tabular-nums">
              {s.status === 'failed' ? 'failed · ' : ''}
              {s.elapsedMs === null ? '' : formatElapsed(s.elapsedMs)}
            </span>
          </li>
        ))}
      </ul>
    </details>
  )
}
