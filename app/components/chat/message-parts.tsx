import { AgentNote } from './agent-note.tsx'
import { Markdown } from './markdown.tsx'
import { HarnessStep } from './harness-step.tsx'
import { ToolStep } from './tool-step.tsx'
import type { ToolPart } from './types.ts'

type Part = { type: string; text?: string } & Partial<ToolPart>

/**
 * The parts of one agent message in order: text as Markdown, the model's notes between tool calls
 * (reasoning parts, decision 0460) as muted asides, tool calls as readable steps. Used
 * by the chat panel and usable for run transcripts (same AI SDK UI message parts).
 */
export function MessageParts({
  parts,
  onAnswer,
}: {
  parts: readonly unknown[]
  onAnswer?: (approvalId: string, approved: boolean) => void
}) {
  return (
    <div className="space-y-2">
      {(parts as Part[]).map((part, i) => {
        if (part.type === 'text' && part.text) return <Markdown key={i} text={part.text} />
        if (part.type === 'reasoning') return <AgentNote key={i} text={part.text} />
        if (part.type === 'tool-run_harness' && part.toolCallId) {
          return (
            <HarnessStep
              key={part.toolCallId}
              part={part as ToolPart}
              renderSteps={(steps) => <MessageParts parts={steps} />}
            />
          )
        }
        if (part.type.startsWith('tool-') && part.toolCallId) {
          return <ToolStep key={part.toolCallId} part={part as ToolPart} onAnswer={onAnswer} />
        }
        return null
      })}
    </div>
  )
}
