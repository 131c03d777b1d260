/**
 * A bootstrap's steps as people read them, on the environment page and in the chat: each setup
 * step with its command, status, time (ticking while it runs) and output tail; the steps of a
 * parallel group boxed together; a failed step's output open.
 */
import { Check, Circle, GitFork, Loader2, X } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { formatElapsed } from '#app/components/runs/format.ts'
import { cn } from '#app/lib/cn.ts'
import type { BootstrapPhase, BootstrapRecord } from '#server/environments/bootstrap/bootstrap.ts'

/** A bootstrap as the page reads it and the chat streams it (the chat's lacks the hash). */
export type BootstrapView = Omit<BootstrapRecord, 'hash'>
type Step = BootstrapView['steps'][number]

/** What each phase is doing, as the status line says it. */
export const PHASE_LABELS: Record<BootstrapPhase, string> = {
  source: 'Fetching the source',
  skills: 'Adding instructions and skills',
  setup: 'Running setup',
  snapshot: 'Taking a snapshot',
  restore: 'Restoring from the snapshot',
  done: 'Done',
}

/** The time now, every second while `live`; null before hydration (the server knows no "now") and when not live. */
export function useNow(live: boolean): number | null {
  const [now, setNow] = useState<number | null>(null)
  useEffect(() => {
    if (!live) return // a finished build's times come from its record
    const tick = () => setNow(Date.now())
    tick()
    const id = setInterval(tick, 1_000)
    return () => clearInterval(id)
  }, [live])
  return now
}

/** How long something took, or has been going on while it runs (empty before hydration). */
export function elapsedText(start: string, end: string | undefined, now: number | null): string {
  if (end) return formatElapsed(Date.parse(end) - Date.parse(start))
  return now === null ? '' : formatElapsed(Math.max(0, now - Date.parse(start)))
}

/** The step or steps running now, as "npm ci" or "npm run build · npm run lint". */
export function currentCommands(record: BootstrapView): string {
  return record.steps
    .filter((s) => s.status === 'running')
    .map((s) => s.command)
    .join(' · ')
}

const ICONS = {
  running: <Loader2 className="size-3.5 animate-spin text-brand-600" aria-hidden />,
  ok: <Check className="size-3.5 text-emerald-600" aria-hidden />,
  failed: <X className="size-3.5 text-red-600" aria-hidden />,
  stopped: <Circle className="size-3.5 text-stone-600 dark:text-stone-400" aria-hidden />,
}
const STATUS_WORDS = { running: 'running', ok: 'done', failed: 'failed', stopped: 'stopped' }

/** The output so far, scrolled to its end as it grows; focusable so the keyboard can scroll it. */
function Tail({ text, tone, label }: { text: string; tone?: 'error'; label: string }) {
  const ref = useRef<HTMLPreElement>(null)
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight
  }, [text])
  return (
    <pre
      ref={ref}
      tabIndex={0}
      aria-label={label}
      data-testid="bootstrap-tail"
      className={cn(
        'mt-1.5 max-h-48 overflow-auto rounded-md bg-stone-950 p-2 font-mono text-xs whitespace-pre-wrap text-stone-100 [overflow-wrap:anywhere] focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none',
        tone === 'error' && 'text-red-200',
      )}
    >
      {text}
    </pre>
  )
}

function StepRow({ step, now, live }: { step: Step; now: number | null; live: boolean }) {
  // A step still "running" in a record that is no longer running was cut short (a restart).
  const status = step.status === 'running' && !live ? 'stopped' : step.status
  const time = status === 'stopped' ? '' : elapsedText(step.startedAt, step.endedAt, now)
  const label = `Output of ${step.command}`
  return (
    <li data-testid="bootstrap-step" data-status={status} className="min-w-0 py-1.5">
      <div className="flex items-start gap-2">
        <span className="mt-0.5 shrink-0">{ICONS[status]}</span>
        <code className="min-w-0 flex-1 font-mono text-xs break-all">{step.command}</code>
        <span className="shrink-0 text-xs text-stone-600 dark:text-stone-400 tabular-nums">
          <span className="sr-only">{STATUS_WORDS[status]} </span>
          {status === 'failed' && step.exitCode !== undefined ? `exit ${step.exitCode ?? 'none'} · ` : ''}
          {time}
        </span>
      </div>
      {step.tail ? (
        status === 'running' || status === 'failed' ? (
          <Tail text={step.tail} tone={status === 'failed' ? 'error' : undefined} label={label} />
        ) : (
          <details className="mt-1 pl-5.5">
            <summary className="cursor-pointer text-xs text-stone-600 dark:text-stone-400">Output</summary>
            <Tail text={step.tail} label={label} />
          </details>
        )
      ) : null}
    </li>
  )
}

/** Serial steps one per line; a parallel group (a nested list in `setup`) boxed together. */
export function BootstrapSteps({ record, now }: { record: BootstrapView; now: number | null }) {
  const live = record.status === 'running'
  const groups: Step[][] = []
  for (const step of record.steps) {
    const last = groups.at(-1)
    if (last && last[0]!.index === step.index) last.push(step)
    else groups.push([step])
  }
  return (
    <ol className="divide-y divide-stone-100 dark:divide-stone-800" aria-label="Setup steps">
      {groups.map((group) => {
        const first = group[0]!
        if (first.member === undefined)
          return <StepRow key={first.index} step={first} now={now} live={live} />
        return (
          <li key={first.index} className="py-1.5">
            <div
              role="group"
              aria-label={`Step ${first.index + 1}: ${group.length} commands in parallel`}
              data-testid="bootstrap-parallel"
              className="rounded-lg border border-dashed border-stone-300 px-2.5 py-1 dark:border-stone-700"
            >
              <p className="flex items-center gap-1 pt-1 text-xs font-medium text-stone-600 dark:text-stone-400">
                <GitFork className="size-3.5" aria-hidden /> In parallel
              </p>
              <ul className="divide-y divide-stone-100 dark:divide-stone-800">
                {group.map((step) => (
                  <StepRow key={step.member} step={step} now={now} live={live} />
                ))}
              </ul>
            </div>
          </li>
        )
      })}
    </ol>
  )
}
