/** graphile-worker's side of the benchmark: its schema, crontabs, and timing its cron pass. */
import { writeFileSync } from 'node:fs'
import { parseCronItems, runMigrations } from 'graphile-worker'
import { createDatabase } from '../lib/pg.ts'

export async function prepareGraphile(name: string): Promise<string> {
  const url = await createDatabase(name)
  await runMigrations({ connectionString: url, logger: undefined })
  return url
}

/** A crontab file with `count` lines for the `noop` task (graphile's crontab is UTC only). */
export function writeCrontab(path: string, pattern: string, count: number, prefix: string): string {
  const lines = Array.from({ length: count }, (_, i) => `${pattern} noop ?id=${prefix}${i}`)
  writeFileSync(path, `${lines.join('\n')}\n`)
  return path
}

/**
 * graphile-worker keeps cron items in memory (nothing stored): each minute it tests every item
 * against the minute's digest (src/cron.ts). Times parsing `size` items once and one minute's pass.
 */
export function timeCronPass(sizes: number[]) {
  return sizes.map((size) => {
    let t = performance.now()
    const items = parseCronItems(
      Array.from({ length: size }, (_, i) => ({ task: 'noop', match: '0 7 * * *', identifier: `i${i}` })),
    )
    const parseMs = performance.now() - t
    const now = new Date()
    const digest = {
      min: now.getUTCMinutes(),
      hour: now.getUTCHours(),
      date: now.getUTCDate(),
      month: now.getUTCMonth() + 1,
      dow: now.getUTCDay(),
    }
    t = performance.now()
    let due = 0
    for (const item of items) if (item.match(digest)) due++
    return { size, parseMs, passMs: performance.now() - t, due }
  })
}
