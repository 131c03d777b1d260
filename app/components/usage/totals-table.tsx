import { Card } from '#app/components/ui/card.tsx'

/** Token counts give way on phones, where the count and the cost still fit beside the name. */
const wide = 'hidden sm:table-cell'

/** One row: a group's count (runs or turns), tokens and its cost already in words. */
export type TotalsRow = {
  key: string
  label: React.ReactNode
  detail?: string
  count: number
  inputTokens: number
  outputTokens: number
  cost: string
}

/** A card with one table of tokens and cost per group, or `empty` when there is no row. */
export function TotalsTable({
  title,
  first,
  countLabel,
  rows,
  empty,
}: {
  title: string
  first: string
  countLabel: string
  rows: TotalsRow[]
  empty: string
}) {
  return (
    <Card className="p-6">
      <h2 className="font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{empty}</p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm tabular-nums">
            <thead>
              <tr className="text-stone-600 dark:text-stone-400">
                <th className="py-1.5 pr-4 font-medium">{first}</th>
                <th className="py-1.5 pr-4 font-medium">{countLabel}</th>
                <th className={`${wide} py-1.5 pr-4 font-medium`}>Tokens in</th>
                <th className={`${wide} py-1.5 pr-4 font-medium`}>Tokens out</th>
                <th className="py-1.5 font-medium">Cost</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key} className="border-t border-stone-100 dark:border-stone-800">
                  <td className="py-1.5 pr-4">
                    {row.label}
                    {row.detail ? (
                      <span className="block text-xs [overflow-wrap:anywhere] text-stone-600 dark:text-stone-400">
                        {row.detail}
                      </span>
                    ) : null}
                  </td>
                  <td className="py-1.5 pr-4">{row.count}</td>
                  <td className={`${wide} py-1.5 pr-4`}>{row.inputTokens.toLocaleString('en-US')}</td>
                  <td className={`${wide} py-1.5 pr-4`}>{row.outputTokens.toLocaleString('en-US')}</td>
                  <td className="py-1.5">{row.cost}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  )
}
