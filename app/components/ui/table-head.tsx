import { cn } from '#app/lib/cn.ts'

export type Column = { label: React.ReactNode; className?: string }

/** A table's header row in the app's style; `cell` sets the padding (denser tables pass their own). */
export function TableHead({ columns, cell = 'px-4 py-2.5' }: { columns: readonly Column[]; cell?: string }) {
  return (
    <thead className="border-b border-stone-200 text-xs text-stone-600 dark:text-stone-400 uppercase dark:border-stone-800">
      <tr>
        {columns.map((column, i) => (
          <th key={i} scope="col" className={cn(cell, 'font-medium whitespace-nowrap', column.className)}>
            {column.label}
          </th>
        ))}
      </tr>
    </thead>
  )
}
