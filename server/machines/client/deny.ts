/**
 * The client's own deny list: checked here, on the person's computer, whatever the server says.
 * Built-in patterns plus `--deny` ones, matched against each simple command of the line.
 */
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

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\?]/g, '\\$&').replace(/\*/g, '.*')
  return new RegExp(`^${body}$`)
}

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

/** The pattern that denies `line`, or undefined when every simple command passes. */
export function deniedBy(line: string, extra: string[]): string | undefined {
  const patterns = [...BUILT_IN_DENY, ...extra]
  for (const command of simpleCommands(line)) {
    const normalised = command.replace(/\s+/g, ' ')
    const hit = patterns.find((p) => globToRegExp(p).test(normalised))
    if (hit) return hit
  }
  return undefined
}
