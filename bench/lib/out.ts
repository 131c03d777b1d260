/**
 * Where a bench keeps its figures: a file of its own under bench/out (ignored by git), named by the
 * bench and the time. bench/RESULTS.md is written by people, from figures taken on a quiet machine;
 * a bench that appended to it on every run would fill it with figures taken under any load.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** Writes `text` to bench/out/<name>-<time>.<extension> and returns the path, relative to the cwd. */
export function writeBenchOutput(name: string, extension: 'md' | 'json', text: string): string {
  const dir = path.resolve(import.meta.dirname, '..', 'out')
  mkdirSync(dir, { recursive: true })
  const file = path.join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.${extension}`)
  writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`)
  return path.relative(process.cwd(), file)
}
