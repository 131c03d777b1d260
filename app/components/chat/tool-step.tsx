import { Ban, Check, Loader2, ShieldX, TriangleAlert } from 'lucide-react'
import { Button } from '#app/components/ui/button.tsx'
import {
  BootstrapLive,
  BootstrapSummaryLine,
  bootstrapSummaryOf,
  bootstrappingOf,
} from './bootstrap-step.tsx'
import { harnessToolView } from './harness-views.tsx'
import { Markdown } from './markdown.tsx'
import { toolView, type ApprovalView, type ToolView } from './tool-views.tsx'
import type { ToolPart } from './types.ts'

type Answer = (id: string, approved: boolean) => void

/** What any tool's approval card says when its view does not say more. */
export function approvalFor(name: string, view: ToolView | undefined, input: unknown): ApprovalView {
  return (
    view?.approval?.(input as never) ?? {
      title: `Allow ${name}?`,
      body: 'The agent wants to use this tool and waits for your answer.',
      confirm: 'Allow',
      cancel: 'Deny',
      what: name,
    }
  )
}

/** The confirmation a call waits for; the person's answer goes back with their next request. */
export function ApprovalCard({
  approval,
  id,
  onAnswer,
}: {
  approval: ApprovalView
  id: string
  onAnswer?: Answer
}) {
  return (
    <div
      role="group"
      aria-label={approval.title}
      data-testid="tool-approval"
      className="rounded-lg border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950"
    >
      <p className="font-medium">{approval.title}</p>
      <p className="mt-0.5 text-stone-600 dark:text-stone-400">{approval.body}</p>
      <div className="mt-2 flex gap-2">
        <Button size="sm" variant="danger" onClick={() => onAnswer?.(id, true)} disabled={!onAnswer}>
          {approval.confirm}
        </Button>
        <Button size="sm" variant="secondary" onClick={() => onAnswer?.(id, false)} disabled={!onAnswer}>
          {approval.cancel}
        </Button>
      </div>
    </div>
  )
}

/** The folded details of a result, shown as its view says (JSON, code, Markdown or a diff). */
function StepBody({ kind, text }: { kind: NonNullable<ToolView['body']>['kind']; text: string }) {
  return (
    <details className="mt-1">
      <summary className="cursor-pointer text-xs text-stone-600 dark:text-stone-400">Details</summary>
      {kind === 'markdown' ? (
        <Markdown text={text} />
      ) : (
        <pre className="mt-1 max-h-60 overflow-auto rounded bg-stone-100 p-2 text-xs dark:bg-stone-800">
          {text}
        </pre>
      )}
    </details>
  )
}

/**
 * One tool call of the agent, as a readable step: what it is doing, what came of it, or the
 * confirmation it is waiting for. How each tool reads comes from its view (tool-views.tsx).
 */
export function ToolStep({ part, onAnswer }: { part: ToolPart; onAnswer?: Answer }) {
  const name = part.type.replace(/^tool-/, '')
  // A harness's own tools (Claude Code's Bash, Edit, mcp__…) first: their names are theirs.
  const view = harnessToolView(name) ?? toolView(name)
  const input = (part.input ?? {}) as never
  const Icon = view?.icon ?? Check
  let icon = <Loader2 className="size-3.5 animate-spin" aria-hidden />
  let body: React.ReactNode
  if (part.state === 'approval-requested' && part.approval)
    return (
      <ApprovalCard approval={approvalFor(name, view, input)} id={part.approval.id} onAnswer={onAnswer} />
    )
  const failure = part.output as { ok?: boolean; error?: { status?: number; message: string } } | undefined
  const building = part.state === 'output-available' && part.preliminary ? bootstrappingOf(part.output) : null
  const built = part.state === 'output-available' ? bootstrapSummaryOf(part.output) : null
  if (building) {
    body = (
      <BootstrapLive record={building} environment={(part.input as { environment?: string })?.environment} />
    )
  } else if (
    part.state === 'output-denied' ||
    (part.state === 'approval-responded' && part.approval?.approved === false)
  ) {
    icon = <Ban className="size-3.5" aria-hidden />
    body = `Not done: ${approvalFor(name, view, input).what} was not confirmed`.replace(/\s+/g, ' ')
  } else if (part.state === 'output-error') {
    icon = <TriangleAlert className="size-3.5 text-red-600" aria-hidden />
    body = (
      <span className="text-red-700 dark:text-red-400">
        {name} failed: {part.errorText}
      </span>
    )
  } else if (part.state === 'output-available' && failure?.ok === false) {
    icon = <TriangleAlert className="size-3.5 text-red-600" aria-hidden />
    const message = failure.error?.message ?? 'unknown error'
    body = (
      <span className="text-red-700 dark:text-red-400">
        {view?.failed?.(message, failure.error?.status, input) ?? `${name} failed: ${message}`}
      </span>
    )
  } else if (part.state === 'output-available') {
    // A command that ran but whose connections the sandbox refused is a refusal, not a success.
    const refused = Boolean((part.output as { networkBlocked?: string[] }).networkBlocked?.length)
    icon = refused ? (
      <ShieldX className="size-3.5 text-red-600" aria-label="Refused" />
    ) : (
      <Icon className={`size-3.5 ${view?.tint ?? ''}`} aria-hidden />
    )
    const output = part.output as never
    body = view ? (
      <>
        {refused ? (
          <span className="text-red-700 dark:text-red-400">{view.done(output, input)}</span>
        ) : (
          view.done(output, input)
        )}
        {view.body ? <StepBody kind={view.body.kind} text={view.body.of(output)} /> : null}
      </>
    ) : (
      `Used ${name}`
    )
  } else {
    body = view ? view.running(input) : `Using ${name}…`
  }
  if (built) {
    body = (
      <>
        {body}
        <BootstrapSummaryLine summary={built} />
      </>
    )
  }
  return (
    <div
      data-testid="tool-step"
      data-tool={name}
      className="flex items-start gap-2 rounded-lg border border-stone-200 bg-stone-50 px-3 py-2 dark:border-stone-800 dark:bg-stone-900"
    >
      <span className="mt-0.5 shrink-0 text-stone-600 dark:text-stone-400">{icon}</span>
      <div className="min-w-0 flex-1">{body}</div>
    </div>
  )
}
