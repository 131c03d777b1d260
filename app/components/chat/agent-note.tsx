/**
 * A note the model wrote between tool calls ("Let me check the feed first…"), which Anthropic's
 * newer models return as a thinking block (decision 0460). Shown muted, as an aside to the steps
 * around it rather than part of the answer. A model that was not asked to show its notes sends
 * them empty: those render nothing.
 */
export function AgentNote({ text }: { text?: string }) {
  if (!text?.trim()) return null
  return (
    <p
      data-testid="agent-note"
      className="text-sm whitespace-pre-wrap text-stone-600 italic dark:text-stone-400"
    >
      {text}
    </p>
  )
}
