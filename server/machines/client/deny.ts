/**
 * The client's own deny list: checked here, on the person's computer, whatever the server says.
 * Built-in patterns plus `--deny` ones, matched against each simple command of the line.
 */
import { compileGlob, globMatches, type Glob } from '../../lib/glob.ts'

export const BUILT_IN_DENY = [
  'sudo *',
  'sudo',
  'su',
  'su *',
  'doas *',
  'rm -rf /',
  'rm -rf /*',
  'rm -rf ~',
  'rm -rf ~/*',
  'mkfs*',
  'dd * of=/dev/*',
  'shutdown*',
  'reboot*',
  'halt*',
  'poweroff*',
  ':(){*',
]

/**
 * A deny pattern, where only `*` is special (any run of characters), as the linear glob matcher
 * the server uses: the line is the agent's, and a regular expression of `.*` per star backtracks
 * (`git * push * --force * --no-verify*` took four seconds over a 10 KB line, minutes over 60 KB,
 * with the client answering nothing meanwhile).
 */
function denyGlob(pattern: string): Glob {
  return compileGlob(pattern.replace(/[?[\]{}\\]/g, '\\$&'))
}

const denyEntry = (pattern: string) => ({ pattern, glob: denyGlob(pattern) })
const BUILT_IN_GLOBS = BUILT_IN_DENY.map(denyEntry)

/** The simple commands of a line, split at `;`, `&&`, `||`, `|`, newlines, `$(`, backticks and `sh -c`. */
export function simpleCommands(line: string): string[] {
  return line
    .split(/;|&&|\|\||\||\n|\$\(|`|\)/)
    .flatMap((part) => {
      const inner = part.match(/^\s*(?:ba|z|da)?sh\s+-c\s+(['"])(.*)\1\s*$/)
      return inner ? [part, ...simpleCommands(inner[2]!)] : [part]
    })
    .map((part) => part.trim().replace(/^(?:env\s+(?:\w+=\S*\s+)*|\w+=\S*\s+)+/, ''))
    .filter(Boolean)
}

/**
 * The pattern that denies `line`, or undefined when the line and each of its simple commands pass.
 * The whole line too: the splitting cuts `:(){ :|:& };:` at its `)`, where no part is a fork bomb.
 */
export function deniedBy(line: string, extra: string[]): string | undefined {
  const patterns = [...BUILT_IN_GLOBS, ...extra.map(denyEntry)]
  for (const command of [line.trim(), ...simpleCommands(line)]) {
    const normalised = command.replace(/\s+/g, ' ')
    const hit = patterns.find(({ glob }) => globMatches(glob, normalised))
    if (hit) return hit.pattern
  }
  return undefined
}
