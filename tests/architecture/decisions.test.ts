/**
 * The decisions in docs/decisions: each has its status and sections and a line in the index, no
 * two share a number, and the index says which are superseded, by which, as their files do.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const dir = path.resolve(import.meta.dirname, '../../docs/decisions')

/**
 * A decision file's shape: a status (a `Status: …` line, or a `## Status` section that starts with
 * it) that says accepted or superseded, and the Context, Decision and Consequences sections.
 */
export function decisionProblems(file: string, text: string): string[] {
  const problems: string[] = []
  const status = /^Status: (.*)$/m.exec(text)?.[1] ?? /^## Status\s*\n\s*(.*)$/m.exec(text)?.[1] ?? ''
  if (!/^(accepted|superseded by \S)/i.test(status)) {
    problems.push(`${file}: needs a line "Status: accepted" or "Status: superseded by NNNN"`)
  }
  for (const section of ['Context', 'Decision', 'Consequences']) {
    if (!new RegExp(`^## ${section}$`, 'm').test(text))
      problems.push(`${file}: needs a "## ${section}" section`)
  }
  return problems
}

/** The decision a status or an index line says replaced this one (`superseded by 0200`), if any. */
const supersededBy = (text: string) => /superseded by \[?(\d{4})/i.exec(text)?.[1]

/**
 * Decisions against their index: no number used twice, and each index line says superseded, by the
 * same decision, exactly when the file's status does, and that decision exists.
 */
export function decisionIndexProblems(decisions: Map<string, string>, index: string): string[] {
  const problems: string[] = []
  const numbers = [...decisions.keys()].map((file) => path.basename(file).slice(0, 4))
  for (const number of new Set(numbers.filter((n, i) => numbers.indexOf(n) !== i)))
    problems.push(`${number}: two decisions share this number`)
  for (const [file, text] of decisions) {
    const name = path.basename(file)
    const status = /^Status: (.*)$/m.exec(text)?.[1] ?? /^## Status\s*\n\s*(.*)$/m.exec(text)?.[1] ?? ''
    const line = index.split('\n').find((l) => l.includes(`](${name})`))
    if (line === undefined) continue // the line itself is checked beside
    const [byFile, byIndex] = [supersededBy(status), supersededBy(line)]
    if (byFile !== byIndex)
      problems.push(
        `${name}: the index says superseded by ${byIndex ?? 'none'}, the file ${byFile ?? 'none'}`,
      )
    if (byFile && !numbers.includes(byFile))
      problems.push(`${name}: superseded by ${byFile}, which does not exist`)
  }
  return problems
}

describe('docs/decisions', () => {
  const files = new Map(
    readdirSync(dir)
      .filter((f) => /^\d{4}-.*\.md$/.test(f))
      .map((f) => [`docs/decisions/${f}`, readFileSync(path.join(dir, f), 'utf8')]),
  )
  const index = readFileSync(path.join(dir, 'README.md'), 'utf8')

  it('finds the decisions and their index', () => {
    expect(files.size).toBeGreaterThan(100)
    expect(index).toContain('## All decisions')
  })

  it('every decision has a status and its sections, and a line in the index', () => {
    expect([...files].flatMap(([file, text]) => decisionProblems(file, text))).toEqual([])
    const missing = [...files.keys()].filter((file) => !index.includes(`](${path.basename(file)})`))
    expect(missing, 'add a line for each to docs/decisions/README.md').toEqual([])
  })

  it('no two decisions share a number, and the index says which are superseded, by which', () => {
    expect(decisionIndexProblems(files, index)).toEqual([])
  })
})

describe('the decisions check itself', () => {
  it('catches a shared number and an index that disagrees with a status', () => {
    const body = '\n\n## Context\n\n## Decision\n\n## Consequences\n'
    const decisions = new Map([
      ['d/0001-a.md', `# A\n\nStatus: superseded by [0002](0002-b.md)${body}`],
      ['d/0002-b.md', `# B\n\nStatus: accepted, narrowed by 0001${body}`],
      ['d/0002-c.md', `# C\n\nStatus: superseded by 0009${body}`],
    ])
    const index = [
      '- [0001](0001-a.md) A — superseded by 0002',
      '- [0002](0002-b.md) B — superseded by 0001',
      '- [0002](0002-c.md) C — superseded by 0009',
    ].join('\n')
    expect(decisionIndexProblems(decisions, index)).toEqual([
      '0002: two decisions share this number',
      '0002-b.md: the index says superseded by 0001, the file none',
      '0002-c.md: superseded by 0009, which does not exist',
    ])
  })

  it('reads both ways of writing a status, and catches a decision without one', () => {
    const sections = '## Context\n\n## Decision\n\n## Consequences\n'
    expect(decisionProblems('d/0001-x.md', `# X\n\nStatus: superseded by 0002\n\n${sections}`)).toEqual([])
    expect(
      decisionProblems('d/0003-x.md', `# X\n\n${sections}\n## Status\n\nAccepted. Replaces 0002.\n`),
    ).toEqual([])
    expect(decisionProblems('d/0007-x.md', `# 0007 X\n\n${sections}`)).toEqual([
      'd/0007-x.md: needs a line "Status: accepted" or "Status: superseded by NNNN"',
    ])
    expect(decisionProblems('d/0008-x.md', '# X\n\nStatus: accepted\n\n## Context\n')).toEqual([
      'd/0008-x.md: needs a "## Decision" section',
      'd/0008-x.md: needs a "## Consequences" section',
    ])
  })
})
