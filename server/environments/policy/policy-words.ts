/**
 * Small readers over unbash's tree copied into plain objects (`plainTree`, policy-tree.ts): unbash
 * builds word parts lazily, so walking the copy is what guarantees `$(…)` and backticks are seen.
 */
export type Json = { type?: string; [key: string]: unknown }
export type WordJson = { type: 'Word'; text: string; value?: string; parts?: Json[] }
export type ArgJson = WordJson | { type: 'Assignment'; text: string }

export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'rbash'])
export const INTERPRETERS = new Set([
  'python',
  'python2',
  'python3',
  'node',
  'nodejs',
  'perl',
  'ruby',
  'php',
  'deno',
  'bun',
  'lua',
  'Rscript',
  'tclsh',
])
export const DOWNLOADERS = new Set([
  'curl',
  'wget',
  'fetch',
  'aria2c',
  'http',
  'https',
  'nc',
  'ncat',
  'socat',
])

const STATIC_PARTS = new Set(['Literal', 'SingleQuoted', 'AnsiCQuoted'])

/** True when the word means the same text whatever the shell's state (no expansion, no glob). */
export function isStatic(word: ArgJson): boolean {
  if (word.type !== 'Word') return false
  return (word.parts ?? []).every((part) => {
    if (STATIC_PARTS.has(part.type ?? '')) return true
    if (part.type === 'DoubleQuoted' || part.type === 'LocaleString') {
      return ((part.parts as Json[] | undefined) ?? []).every((child) => child.type === 'Literal')
    }
    return false
  })
}

/** The word as the command sees it after quote removal (expansions stay as written). */
export const wordValue = (word: ArgJson): string =>
  word.type === 'Word' ? (word.value ?? word.text) : word.text

export const basename = (name: string): string => name.slice(name.lastIndexOf('/') + 1)

/** The command-name base of every simple command anywhere below `node`. */
export function commandNamesIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const child of node) commandNamesIn(child, out)
    return out
  }
  if (!node || typeof node !== 'object') return out
  const json = node as Json
  if (json.type === 'Command' && json.name) out.push(basename(wordValue(json.name as WordJson)))
  for (const [key, value] of Object.entries(json)) if (key !== 'type') commandNamesIn(value, out)
  return out
}

/** Does a substitution inside this word run a downloader (`bash <(curl …)`, `"$(wget -O- …)"`)? */
export const fetchesCode = (word: unknown): boolean =>
  commandNamesIn(word).some((name) => DOWNLOADERS.has(name))

/** Splits a command's suffix into its words and its redirections. */
export function splitSuffix(items: Json[]): { args: ArgJson[]; redirects: Json[] } {
  const args: ArgJson[] = []
  const redirects: Json[] = []
  for (const item of items) {
    if (item.type === 'Word' || item.type === 'Assignment') args.push(item as ArgJson)
    else redirects.push(item)
  }
  return { args, redirects }
}
