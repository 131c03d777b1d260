import type { ChatKeySource, ChatTotals, ChatUsage } from '#server/runs/chat-usage.ts'
import { Card } from '#app/components/ui/card.tsx'
import { formatChatCost } from '#app/components/usage/cost.ts'
import { TotalsTable, type TotalsRow } from '#app/components/usage/totals-table.tsx'
import { UsageChart } from '#app/components/usage/usage-chart.tsx'

const KEY_NAMES: Record<ChatKeySource, string> = {
  personal: 'Personal keys',
  org: "The organisation's key",
  deployment: "The deployment's key",
  none: 'No key',
}

const toRow = (row: ChatTotals & Pick<TotalsRow, 'key' | 'label' | 'detail'>): TotalsRow => ({
  key: row.key,
  label: row.label,
  detail: row.detail,
  count: row.turns,
  inputTokens: row.inputTokens,
  outputTokens: row.outputTokens,
  cost: formatChatCost(row),
})

/** What chat cost over the report's window: in total, per day, per person and per key the turns spent on. */
export function ChatUsageTables({ chat, days }: { chat: ChatUsage; days: number }) {
  const people = chat.byPerson.map((p) => toRow({ ...p, key: p.userId, label: p.name, detail: p.email }))
  const keys = chat.byKeySource.map((k) => toRow({ ...k, key: k.keySource, label: KEY_NAMES[k.keySource] }))
  // An empty period says so once, in the summary, rather than once per table.
  if (chat.total.turns === 0) {
    return (
      <Card className="p-6">
        <h2 className="font-semibold">Chat</h2>
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">No chat turns in this period.</p>
      </Card>
    )
  }
  return (
    <div className="grid grid-cols-1 gap-6">
      <Card className="p-6">
        <h2 className="font-semibold">Chat</h2>
        <p className="mt-2 text-sm tabular-nums">
          {chat.total.turns} {chat.total.turns === 1 ? 'turn' : 'turns'} in the last {days} days, on every
          key: {formatChatCost(chat.total)}
        </p>
        <div className="mt-5">
          <UsageChart days={chat.byDay.map((d) => ({ ...d, count: d.turns }))} noun="turns" subject="Chat" />
        </div>
      </Card>
      <TotalsTable title="Chat per person" first="Person" countLabel="Turns" rows={people} empty="" />
      <TotalsTable title="Chat per key" first="Key" countLabel="Turns" rows={keys} empty="" />
    </div>
  )
}
