import { formatUsd } from '#app/components/runs/format.ts'
import type { ChatTotals } from '#server/runs/chat-usage.ts'

/**
 * A chat cost in words: turns on a model without a known price cost something nobody can say, so
 * they read "unknown" (beside the known part when there is one), never $0.
 */
export function formatChatCost({ costUsd, unpricedTurns }: Pick<ChatTotals, 'costUsd' | 'unpricedTurns'>) {
  if (costUsd === null) return 'unknown'
  return unpricedTurns > 0 ? `${formatUsd(costUsd)} + unknown` : formatUsd(costUsd)
}
