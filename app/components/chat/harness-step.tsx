/**
 * `run_harness` in chat: the harness's own steps as they come (preliminary results), the approval
 * card when its policy asks before a command (answered straight to the server, where the harness
 * waits), then its steps, tokens and cost once it finished.
 */
import { Bot, Loader2, TriangleAlert } from 'lucide-react'
import { useState } from 'react'
import type { HarnessProgress } from '#server/agent/tools/run-harness.ts'
import { ApprovalCard } from './tool-step.tsx'
import type { ToolPart } from './types.ts'

type Final = {
  ok: boolean
  harness?: string
  steps?: unknown[]
  usage?: { inputTokens: number; outputTokens: number; costUsd: number | null }
  error?: { message: string }
}

async function answer(id: string, approved: boolean) {
  await fetch(`/_agent-native/harness/approvals/${id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ approved }),
  })
}

/** `renderSteps` draws the harness's own steps (the message parts view, passed in: it draws this step too). */
export function HarnessStep({
  part,
  renderSteps,
}: {
  part: ToolPart
  renderSteps: (steps: readonly unknown[]) => React.ReactNode
}) {
  const input = (part.input ?? {}) as { harness?: string; environment?: string }
  const [answered, setAnswered] = useState<string | null>(null)
  const output = part.output as (HarnessProgress & Partial<Final>) | Final | undefined
  const running = !output || ('running' in output && part.preliminary)
  const approval = output && 'approval' in output ? output.approval : undefined
  const who = `${input.harness ?? 'The harness'} in ${input.environment ?? 'its environment'}`
  let line: React.ReactNode = `${who} is working…`
  if (!running && output?.ok) {
    const usage = (output as Final).usage
    line = `${who} finished${usage ? ` (${usage.inputTokens + usage.outputTokens} tokens${usage.costUsd !== null ? `, $${usage.costUsd.toFixed(4)}` : ''})` : ''}`
  } else if (!running && output) {
    line = (
      <span className="text-red-700 dark:text-red-400">
        {who} stopped: {(output as Final).error?.message ?? 'failed'}
      </span>
    )
  }
  return (
    <div
      data-testid="harness-step"
      className="space-y-2 rounded-lg border border-stone-200 bg-stone-50 px-3 py-2 dark:border-stone-800 dark:bg-stone-900"
    >
      <div className="flex items-start gap-2">
        <span className="mt-0.5 shrink-0 text-stone-600 dark:text-stone-400">
          {running ? (
            <Loader2 className="size-3.5 animate-spin" aria-hidden />
          ) : output?.ok ? (
            <Bot className="size-3.5" aria-hidden />
          ) : (
            <TriangleAlert className="size-3.5 text-red-600" aria-hidden />
          )}
        </span>
        <div className="min-w-0 flex-1">{line}</div>
      </div>
      {output?.steps?.length ? renderSteps(output.steps) : null}
      {approval && answered !== approval.id ? (
        <ApprovalCard
          id={approval.id}
          approval={{
            title: 'Run this command?',
            body: `The environment's policy asks before running:\n${approval.command}`,
            confirm: 'Run once',
            cancel: 'Deny',
            what: `run ${approval.command}`,
          }}
          onAnswer={(id, approved) => {
            setAnswered(id)
            void answer(id, approved)
          }}
        />
      ) : null}
    </div>
  )
}
