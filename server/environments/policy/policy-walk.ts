/**
 * Turns a command line into the list of things the policy must judge: every simple command the
 * shell could run (after `;`, `&&`, `||`, pipes and newlines, inside `$(…)`, backticks, process
 * substitutions, subshells, functions, `sh -c`/`eval` strings, here-docs fed to a shell, and behind
 * wrappers like `env`, `xargs` or `find -exec`), plus the built-in verdicts those commands earn.
 */
import { parse } from 'unbash'
import { type BuiltinHit, builtinDenies, writesFiles } from './policy-builtin.ts'
import { codeArguments, expansionHit, numericNames } from './policy-code.ts'
import {
  type ArgJson,
  basename,
  commandNamesIn,
  DOWNLOADERS,
  fetchesCode,
  INTERPRETERS,
  isStatic,
  type Json,
  SHELLS,
  splitSuffix,
  wordValue,
  type WordJson,
} from './policy-words.ts'
import { plainTree } from './policy-tree.ts'
import { innerCommands, isWrapper } from './policy-wrappers.ts'

/**
 * One thing to judge: a simple command matched against patterns, or a built-in verdict on it.
 * `names` are its command name as written and its base name; `dynamic` says an argument is
 * computed (an expansion, a glob, braces), so what runs may be what a pattern names.
 */
export type Check = {
  command: string
  forms: string[]
  builtin?: BuiltinHit
  names?: string[]
  dynamic?: boolean
  /** It writes a file of its own: an output redirect, or find's -fprint and kin (policy-builtin.ts). */
  writes?: boolean
}

/** How deep `sh -c "bash -c '…'"` may nest before the line is refused outright. */
const MAX_DEPTH = 6

/**
 * Characters of argv the walk may judge for one line. A command is judged whole and again behind
 * each wrapper or `sh -c` around it, so the work is not linear in the line: a 64 KiB line is
 * judged whole about thirty times before this runs out, and `env env …` sixteen thousand deep
 * (16 s, then a stack overflow) is refused after a few hundred levels.
 */
export const WALK_BUDGET = 2_000_000

/** The walk's budget ran out: the line is refused as too complex, not judged for seconds. */
export class WalkBudgetSpent extends Error {}

type Ctx = {
  depth: number
  pipeIndex: number
  /** An earlier stage of this pipeline runs a downloader (`curl … | sh`). */
  downloadUpstream: boolean
  numeric: Set<string>
  budget: { chars: number }
}

const ask = (rule: string, reason: string): BuiltinHit => ({
  decision: 'ask',
  rule: `builtin:${rule}`,
  reason,
})
const INLINE_REASON = 'inline code cannot be checked; write it to a file and run the file'

/** How each interpreter takes code on its command line (`python3 -c`, `node -e`, `perl -ne`…). */
const INLINE_CODE_FLAGS: Record<string, RegExp> = {
  python: /^-[A-Za-z]*c$/,
  node: /^(-[ep]|-pe|--eval|--print)(=.*)?$/,
  nodejs: /^(-[ep]|-pe|--eval|--print)(=.*)?$/,
  bun: /^(-e|--eval|--print)(=.*)?$/,
  perl: /^-[A-Za-z]*[eE]/,
  ruby: /^-[A-Za-z]*e$/,
  php: /^-[A-Za-z]*r$/,
  deno: /^eval$/,
  lua: /^-e$/,
  Rscript: /^-e$/,
}

/**
 * A shell's `-c` among its short flags (`-c`, `-xc`, `-lic`), in one pass: the expression
 * `^-[A-Za-z]*c[A-Za-z]*$` backtracked over a long word that ends in another character, 60,000
 * letters and a digit about three seconds of a judge worker's time.
 */
const SHELL_CODE_FLAG = { test: (word: string) => /^-[A-Za-z]+$/.test(word) && word.includes('c') }

export class ParseFailure extends Error {}

/** All checks for a command line. @throws ParseFailure when the line is not valid shell. */
export function collectChecks(line: string): Check[] {
  const checks: Check[] = []
  const budget = { chars: WALK_BUDGET }
  walkScript(line, { depth: 0, pipeIndex: 0, downloadUpstream: false, numeric: new Set(), budget }, checks)
  return checks
}

function walkScript(source: string, ctx: Ctx, checks: Check[]) {
  if (ctx.depth > MAX_DEPTH) throw new ParseFailure(`nested more than ${MAX_DEPTH} levels deep`)
  const tree = plainTree(parse(source)) as Json
  walk(tree, { ...ctx, numeric: numericNames(tree, new Set(ctx.numeric)) }, checks)
}

function walk(node: unknown, ctx: Ctx, checks: Check[]): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, ctx, checks)
    return
  }
  if (!node || typeof node !== 'object') return
  const json = node as Json
  const errors = json.errors as { message: string }[] | undefined
  if (errors?.length) throw new ParseFailure(errors.map((e) => e.message).join('; '))
  const fresh: Ctx = { ...ctx, pipeIndex: 0, downloadUpstream: false }
  const hit = expansionHit(json, ctx.numeric)
  if (hit) checks.push({ command: String(json.text ?? json.type), forms: [], builtin: hit })
  if (json.type === 'Pipeline') {
    // Whether a downloader ran upstream is carried along, stage by stage: listing the names of all
    // earlier stages at each one made a 4,000-stage pipeline take 6 s.
    let downloadUpstream = false
    ;(json.commands as Json[]).forEach((stage, i) => {
      walk(stage, { ...ctx, pipeIndex: i, downloadUpstream }, checks)
      downloadUpstream ||= commandNamesIn(stage).some((n) => DOWNLOADERS.has(n))
    })
    return
  }
  if (json.type === 'Command') {
    const { args, redirects } = splitSuffix(json.suffix as Json[])
    const prefixRedirects = (json.prefix as Json[]).filter((p) => p.type !== 'Assignment')
    if (json.name)
      judgeArgv([json.name as WordJson, ...args], [...prefixRedirects, ...redirects], ctx, checks)
    // Substitutions anywhere in the words run before the command: judge them on their own.
    for (const key of ['name', 'prefix', 'suffix']) walk(json[key], fresh, checks)
    return
  }
  if (json.type === 'Function') {
    const name = wordValue(json.name as WordJson)
    if (commandNamesIn(json.body).includes(name)) {
      checks.push({
        command: `${name}()`,
        forms: [],
        builtin: { decision: 'deny', rule: 'builtin:fork-bomb', reason: `function ${name} calls itself` },
      })
    }
  }
  for (const [key, value] of Object.entries(json)) if (key !== 'type') walk(value, ctx, checks)
}

/** Judges one argv (a simple command or what a wrapper runs), then what it runs in turn. */
function judgeArgv(argv: ArgJson[], redirects: Json[], ctx: Ctx, checks: Check[]) {
  const [nameWord, ...args] = argv
  if (!nameWord) return
  const display = argv.map(wordValue).join(' ')
  ctx.budget.chars -= display.length + argv.length
  if (ctx.budget.chars < 0) throw new WalkBudgetSpent()
  if (!isStatic(nameWord)) {
    checks.push({
      command: display,
      forms: [],
      builtin: ask('dynamic-command', 'the command name is computed'),
    })
    return
  }
  const name = wordValue(nameWord)
  const base = basename(name)
  const rest = args.map(wordValue).join(' ')
  const forms = [...new Set([`${base} ${rest}`, `${name} ${rest}`].map(normalise))]
  const dynamic = args.some((arg) => !isStatic(arg))
  const writes = writesFiles(base, args, redirects)
  checks.push({ command: normalise(display), forms, names: [...new Set([base, name])], dynamic, writes })
  for (const hit of builtinDenies(base, args, redirects))
    checks.push({ command: normalise(display), forms, builtin: hit })
  const flag = (hit: BuiltinHit) => checks.push({ command: normalise(display), forms: [], builtin: hit })
  const inner = { ...ctx, depth: ctx.depth + 1 }

  const runsCode = SHELLS.has(base) || INTERPRETERS.has(family(base))
  if (runsCode || base === 'eval' || base === 'source' || base === '.') {
    if (args.some(fetchesCode)) flag(deny('download-exec', `${base} would run code fetched from the network`))
  }
  if (base === 'eval') {
    flag(ask('eval', 'eval runs a string as code'))
    if (args.every(isStatic)) walkScript(rest, inner, checks)
    return
  }
  if (runsCode) judgeInterpreter(base, args, redirects, ctx, checks, flag)
  const code = codeArguments(base, args)
  for (const hit of code.hits) flag(hit)
  if (code.shell.length > 0 && code.shell.every(isStatic))
    walkScript(code.shell.map(wordValue).join(' '), inner, checks)
  if (isWrapper(base)) {
    for (const found of innerCommands(base, argv)) {
      if ('argv' in found) judgeArgv(found.argv, [], ctx, checks)
      else {
        flag(ask('inline-code', `${base} -S splits a string into a command; ${INLINE_REASON}`))
        if (isStatic(found.code)) walkScript(wordValue(found.code), inner, checks)
      }
    }
  }
}

/** Shells and language interpreters: inline code, code on stdin, code piped in from a download. */
function judgeInterpreter(
  base: string,
  args: ArgJson[],
  redirects: Json[],
  ctx: Ctx,
  checks: Check[],
  flag: (hit: BuiltinHit) => void,
) {
  const shell = SHELLS.has(base)
  const values = args.map(wordValue)
  const inlineFlag = shell ? SHELL_CODE_FLAG : INLINE_CODE_FLAGS[family(base)]
  const codeFlag = inlineFlag ? values.findIndex((v) => inlineFlag.test(v)) : -1
  const inner = { ...ctx, depth: ctx.depth + 1 }
  if (codeFlag >= 0) {
    flag(ask('inline-code', `${base} ${values[codeFlag]}: ${INLINE_REASON}`))
    const code = shell ? args.slice(codeFlag + 1).find((a) => !wordValue(a).startsWith('-')) : undefined
    if (code && isStatic(code)) walkScript(wordValue(code), inner, checks)
    return
  }
  const script = values.find((v) => !v.startsWith('-') || v === '-')
  if (script !== undefined && script !== '-') return // runs a file: judged by what the file is
  const heredoc = redirects.find((r) => r.type === 'HereDoc' || r.type === 'HereString')
  if (heredoc) {
    flag(ask('stdin-code', `${base} reads code from a here-document; ${INLINE_REASON}`))
    const body = heredoc.type === 'HereDoc' ? (heredoc.body as { text: string }).text : ''
    const target = heredoc.target as WordJson | undefined
    if (shell) walkScript(heredoc.type === 'HereDoc' ? body : target ? wordValue(target) : '', inner, checks)
    return
  }
  if (ctx.pipeIndex > 0) {
    if (ctx.downloadUpstream) {
      flag(deny('download-exec', `piping a download into ${base} runs code fetched from the network`))
    } else flag(ask('pipe-to-shell', `piping into ${base} runs whatever arrives as code`))
  }
}

function deny(rule: string, reason: string): BuiltinHit {
  return { decision: 'deny', rule: `builtin:${rule}`, reason }
}

/**
 * `python3.11` → `python`, `lua5.4` → `lua`: versioned names behave like the family. A loop, not
 * `/[\d.]+$/`: that regex tried every start in a run of digits (65,000 of them: 4 s).
 */
function family(base: string): string {
  let end = base.length
  while (end > 0 && /[\d.]/.test(base[end - 1]!)) end--
  return base.slice(0, end)
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim()
