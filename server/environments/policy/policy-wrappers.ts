/**
 * Commands that run another command: the policy checks the wrapper and, separately, what it runs.
 * Each reader skips the wrapper's own options (and their values) to find the inner argv.
 */
import { type ArgJson, wordValue } from './policy-words.ts'

export type Inner = { argv: ArgJson[] } | { code: ArgJson }

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/

/** Options that take a value as the next word, per wrapper. Anything else starting with - is a flag. */
const VALUE_OPTIONS: Record<string, Set<string>> = {
  env: new Set(['-u', '--unset', '-C', '--chdir']),
  command: new Set(),
  exec: new Set(['-a']),
  nohup: new Set(),
  timeout: new Set(['-s', '--signal', '-k', '--kill-after']),
  nice: new Set(['-n', '--adjustment']),
  xargs: new Set(['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a', '--arg-file', '--delimiter', '--max-args']),
  setsid: new Set(),
  stdbuf: new Set(['-i', '-o', '-e']),
  ionice: new Set(['-c', '-n', '-p', '-P', '-u']),
  time: new Set(['-f', '-o', '--format', '--output']),
  chronic: new Set(),
  busybox: new Set(),
  strace: new Set(['-e', '-o', '-p', '-s', '-u', '-E', '-a', '-b', '-I', '-O', '-S', '-X', '-P', '-U']),
  ltrace: new Set(['-e', '-o', '-p', '-s', '-u', '-a', '-n', '-l', '-x', '-F', '-A', '-D']),
  flock: new Set(['-w', '--timeout', '-E', '--conflict-exit-code']),
  taskset: new Set(),
  chrt: new Set(),
  unbuffer: new Set(),
}

/** Wrappers whose first operand is not the command (timeout's duration). */
const LEADING_OPERANDS: Record<string, number> = { timeout: 1, flock: 1, taskset: 1, chrt: 1 }

export const isWrapper = (base: string): boolean => base in VALUE_OPTIONS || base === 'find'

/** What a wrapper runs; empty when it runs nothing (`command -v x`, bare `env`). */
export function innerCommands(base: string, argv: ArgJson[]): Inner[] {
  if (base === 'find') return findExec(argv)
  const valueOptions = VALUE_OPTIONS[base]
  if (!valueOptions) return []
  let operandsToSkip = LEADING_OPERANDS[base] ?? 0
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!
    const text = wordValue(word)
    if (word.type === 'Assignment' || (base === 'env' && ASSIGNMENT.test(text))) continue
    if (text === '--') {
      const start = i + 1 + operandsToSkip // `timeout -- 5 cmd`: the duration still comes first
      return argv.length > start ? [{ argv: argv.slice(start) }] : []
    }
    if (text.startsWith('-') && text.length > 1) {
      if (base === 'command' && /^-[pvV]*[vV]/.test(text)) return [] // a lookup, not a run
      if (base === 'env' && (text === '-S' || text === '--split-string')) {
        const code = argv[i + 1]
        return code ? [{ code }] : []
      }
      if (base === 'env' && (text.startsWith('-S') || text.startsWith('--split-string='))) {
        return [{ code: { type: 'Word', text: text.replace(/^(-S|--split-string=)/, '') } }]
      }
      if (valueOptions.has(text)) i++
      continue
    }
    if (operandsToSkip > 0) {
      operandsToSkip--
      continue
    }
    return [{ argv: argv.slice(i) }]
  }
  return []
}

/** `find … -exec cmd args {} ;` (also -execdir, -ok, -okdir), as many times as it appears. */
function findExec(argv: ArgJson[]): Inner[] {
  const found: Inner[] = []
  for (let i = 1; i < argv.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(wordValue(argv[i]!))) continue
    let end = i + 1
    while (end < argv.length && !/^[;+]$/.test(wordValue(argv[end]!))) end++
    if (end > i + 1) found.push({ argv: argv.slice(i + 1, end) })
    i = end
  }
  return found
}
