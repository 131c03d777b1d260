/**
 * What the shell or a program evaluates that a static reading cannot see: a prompt expansion
 * (`${x@P}` runs the `$(…)` inside the value), arithmetic on a variable (its value is evaluated as
 * an expression, and an array index in it runs commands), and programs whose arguments are code
 * (`trap CMD EXIT`, `awk 'BEGIN{system(…)}'`, `script -c`, `make --eval`, `watch`, `gdb`). Each is
 * `ask`: a person may approve it, an unattended run may not. Where the code is a literal, it is
 * also walked as shell, so a denied command inside it is still denied.
 */
import type { BuiltinHit } from './policy-builtin.ts'
import { type ArgJson, type Json, wordValue, type WordJson, isStatic } from './policy-words.ts'

const ask = (rule: string, reason: string): BuiltinHit => ({
  decision: 'ask',
  rule: `builtin:${rule}`,
  reason,
})

const ARITHMETIC_TEST = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge'])
const NUMBER = /^(0x[0-9a-f]+|\d+)$/i

/** Names the line sets to a plain number (`i=0`, `((n = 3))`): arithmetic on them is harmless. */
export function numericNames(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const child of node) numericNames(child, out)
    return out
  }
  if (!node || typeof node !== 'object') return out
  const json = node as Json
  if (json.type === 'Assignment' && typeof json.name === 'string') {
    const value = json.value as WordJson | undefined
    if (value && isStatic(value) && NUMBER.test(wordValue(value))) out.add(json.name)
  }
  if (json.type === 'ArithmeticBinary' && json.operator === '=') {
    const left = json.left as Json
    const right = json.right as Json
    if (
      left?.type === 'ArithmeticWord' &&
      right?.type === 'ArithmeticWord' &&
      NUMBER.test(String(right.value))
    )
      out.add(String(left.value))
  }
  for (const [key, value] of Object.entries(json)) if (key !== 'type') numericNames(value, out)
  return out
}

/** Variable names an arithmetic expression reads. */
function arithmeticNames(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const child of node) arithmeticNames(child, out)
    return out
  }
  if (!node || typeof node !== 'object') return out
  const json = node as Json
  if (json.type === 'ArithmeticWord' && !NUMBER.test(String(json.value))) out.push(String(json.value))
  if (json.type === 'Word' || json.type === 'SimpleExpansion' || json.type === 'ParameterExpansion')
    out.push(String(json.text ?? json.value))
  for (const [key, value] of Object.entries(json)) if (key !== 'type') arithmeticNames(value, out)
  return out
}

/** The built-in `ask` an expansion or compound earns, if any (one node of the tree). */
export function expansionHit(json: Json, numeric: Set<string>): BuiltinHit | undefined {
  if (json.type === 'ParameterExpansion') {
    const operation = json.operation as Json | undefined
    const operand = operation?.operand as WordJson | undefined
    if (operation?.type === 'Transform' && operand && wordValue(operand) === 'P')
      return ask('prompt-expansion', `\${…@P} expands the value as a prompt, running any $(…) in it`)
    const index = json.index as WordJson | undefined
    if (
      index &&
      !isStatic(index) &&
      !arithmeticNames(index).every((n) => numeric.has(n.replace(/^\$\{?|\}$/g, '')))
    )
      return ask(
        'arithmetic',
        'an array index is evaluated as arithmetic, which runs an index inside the value',
      )
  }
  const arithmetic =
    json.type === 'ArithmeticExpansion' || json.type === 'ArithmeticCommand' || json.type === 'ArithmeticFor'
  if (arithmetic) {
    const names = arithmeticNames(
      json.type === 'ArithmeticFor' ? [json.initialize, json.test, json.update] : json.expression,
    )
    if (names.some((n) => !numeric.has(n.replace(/^\$\{?|\}$/g, ''))))
      return ask(
        'arithmetic',
        "arithmetic evaluates a variable's value as an expression, and an array index inside it runs commands",
      )
  }
  if (json.type === 'TestBinary' && ARITHMETIC_TEST.has(String(json.operator))) {
    const sides = [json.left, json.right] as WordJson[]
    if (sides.some((side) => side && !isStatic(side)))
      return ask(
        'arithmetic',
        `[[ ${String(json.operator)} ]] evaluates its operands as arithmetic expressions`,
      )
  }
  return undefined
}

const AWK = /^(g|m|n|busybox-)?awk$/
const INLINE = 'its argument is code the policy cannot read'

/**
 * A program whose arguments are code: the hits it earns and the code to walk as shell (when it is
 * shell). Programs that only run another command (strace, flock…) are wrappers (policy-wrappers.ts).
 */
export function codeArguments(base: string, args: ArgJson[]): { hits: BuiltinHit[]; shell: ArgJson[] } {
  const values = args.map(wordValue)
  if (base === 'trap') {
    // `trap CMD SIG…`; `trap - SIG`, `trap '' SIG`, `trap -p`, `trap -l` run nothing.
    const code = args[0]
    if (!code || values[0] === '-' || values[0] === '' || values[0]!.startsWith('-') || args.length < 2)
      return { hits: [], shell: [] }
    return {
      hits: [ask('inline-code', `trap runs ${JSON.stringify(values[0])} as code later; ${INLINE}`)],
      shell: [code],
    }
  }
  if (AWK.test(base)) {
    const usesFile = values.some((v) => v === '-f' || v.startsWith('--file') || /^-[^-]*f$/.test(v))
    return usesFile
      ? { hits: [], shell: [] }
      : {
          hits: [ask('inline-code', `${base}'s program can run commands (system, pipes); ${INLINE}`)],
          shell: [],
        }
  }
  if (base === 'script') {
    const at = values.findIndex((v) => v === '-c' || v === '--command' || v.startsWith('--command='))
    if (at < 0) return { hits: [], shell: [] }
    const code = values[at]!.startsWith('--command=')
      ? ({ type: 'Word', text: values[at]!.slice('--command='.length) } as WordJson)
      : args[at + 1]
    return {
      hits: [ask('inline-code', `script -c runs a command line; ${INLINE}`)],
      shell: code ? [code] : [],
    }
  }
  if (base === 'watch') {
    const start = values.findIndex(
      (v, i) => !v.startsWith('-') && !/^-(n|d|-interval)$/.test(values[i - 1] ?? ''),
    )
    return {
      hits: [ask('inline-code', `watch runs its arguments as a shell command line; ${INLINE}`)],
      shell: start >= 0 ? args.slice(start) : [],
    }
  }
  if (base === 'gdb' || base === 'lldb')
    return { hits: [ask('inline-code', `${base} can run any command from its own command line`)], shell: [] }
  if (base === 'make' || base === 'gmake') {
    const hits: BuiltinHit[] = []
    values.forEach((v, i) => {
      if (v === '-E' || v === '--eval' || v.startsWith('--eval='))
        hits.push(ask('inline-code', `make ${v} evaluates makefile text; ${INLINE}`))
      if (
        /^(-f|--file|--makefile)$/.test(v) &&
        (!args[i + 1] ||
          !isStatic(args[i + 1]!) ||
          /^(-|\/dev\/stdin|\/proc\/self\/fd\/\d+|\/dev\/fd\/\d+)$/.test(values[i + 1] ?? ''))
      )
        hits.push(
          ask('stdin-code', 'make reads a makefile from stdin or a computed path; the policy cannot read it'),
        )
      if (/^SHELL=/.test(v) || /^\.SHELLFLAGS=/.test(v))
        hits.push(ask('inline-code', `make ${v} changes what runs every recipe`))
    })
    return { hits, shell: [] }
  }
  return { hits: [], shell: [] }
}
