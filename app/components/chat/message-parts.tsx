import ReactMarkdown from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { ToolStep } from './tool-step.tsx'
import type { ToolPart } from './types.ts'

type Part = { type: string; text?: string } & Partial<ToolPart>

/** Markdown from the model, without raw HTML (react-markdown drops it), links opened safely. */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="prose-chat space-y-2 break-words [&_code]:rounded [&_code]:bg-stone-100 [&_code]:px-1 [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_ul]:list-disc [&_ul]:pl-5 dark:[&_code]:bg-stone-800">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        components={{
          a: ({ href, children }) => (
            <a href={href} className="underline underline-offset-2" rel="noopener noreferrer">
              {children}
            </a>
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  )
}

/**
 * The parts of one agent message in order: text as Markdown, tool calls as readable steps. Used
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
        if (part.type.startsWith('tool-') && part.toolCallId) {
          return <ToolStep key={part.toolCallId} part={part as ToolPart} onAnswer={onAnswer} />
        }
        return null
      })}
    </div>
  )
}
