/**
 * Where in a job file an error points. The server names the line for YAML errors
 * ("Line 3: invalid YAML…") and the field otherwise; this finds that field's line.
 */

/** The 1-based line an error is about, or null when it is about the whole file. */
export function lineOfError(text: string, error: { message: string; field?: string }): number | null {
  const stated = /^Line (\d+):/.exec(error.message)
  if (stated) return Number(stated[1])
  const lines = text.split(/\r?\n/)
  const closing = lines.findIndex((line, i) => i > 0 && line.startsWith('---'))
  if (error.field === 'instructions') return closing >= 0 ? Math.min(closing + 2, lines.length) : null
  if (error.field === 'frontmatter') return 1
  const key = error.field?.split('.')[0]
  if (!key) return null
  const end = closing >= 0 ? closing : lines.length
  const index = lines.slice(0, end).findIndex((line) => line.startsWith(`${key}:`))
  return index >= 0 ? index + 1 : null
}

/** A line to mark in the editor, with what is wrong there. */
export type ErrorMark = { line: number; message: string }

/**
 * Every line the problems point at, in order, one mark per line (problems on the same line share
 * it, their messages joined); problems about the whole file mark nothing.
 */
export function errorMarks(text: string, problems: { message: string; field?: string }[]): ErrorMark[] {
  const byLine = new Map<number, string[]>()
  for (const problem of problems) {
    const line = lineOfError(text, problem)
    if (line !== null) byLine.set(line, [...(byLine.get(line) ?? []), problem.message])
  }
  return [...byLine]
    .sort(([a], [b]) => a - b)
    .map(([line, messages]) => ({ line, message: messages.join('\n') }))
}

/** True for paths the jobs service owns: `jobs/<name>.md`. */
export function isJobFilePath(path: string): boolean {
  return /^jobs\/[^/]+\.md$/.test(path)
}

/** The job name of `jobs/<name>.md`. */
export function jobNameOf(path: string): string {
  return path.replace(/^jobs\//, '').replace(/\.md$/, '')
}

/** The environment an `environments/<name>.md` path defines, or null for any other file. */
export function environmentNameOf(path: string): string | null {
  return /^environments\/([a-z0-9][a-z0-9-]*)\.md$/.exec(path)?.[1] ?? null
}
