/** Percentiles and a plain-text table, for the benchmark's output. */

export type Summary = { n: number; p50: number; p99: number; max: number }

/** Nearest-rank percentile of `values` (ms). */
export function summarize(values: number[]): Summary | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
  return { n: sorted.length, p50: rank(50), p99: rank(99), max: sorted.at(-1)! }
}

export function median(values: number[]): number {
  return summarize(values)?.p50 ?? NaN
}

/** "12 ms", "1.84 s", "—". */
export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—'
  if (Math.abs(value) < 10) return `${value.toFixed(1)} ms`
  if (Math.abs(value) < 1_000) return `${Math.round(value)} ms`
  return `${(value / 1_000).toFixed(2)} s`
}

/** A Markdown-compatible table with padded columns. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n')
}
