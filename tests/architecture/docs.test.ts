/**
 * The docs check, beside markdownlint (`npm run lint`): what a Markdown linter cannot see across
 * files. Every relative link and `#anchor` in README.md and docs/ resolves, no table row hides in a
 * paragraph or grows past a plain-text reading, no link leaves the repository, every `npm run` and
 * repository path the docs name exists, and the code points only at docs that exist (never outside
 * the repository). The decisions (decisions.test.ts), the
 * API list (api-docs.test.ts) and the environment variables (configuration.test.ts) have their own.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')

/** README.md and every Markdown file under docs/, as repository-relative paths. */
function docFiles(): string[] {
  const docs = readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.posix.join('docs', f.split(path.sep).join('/')))
  return ['README.md', ...docs.sort()]
}

/** The text outside fenced code blocks, line by line (fenced lines become empty, keeping numbers). */
function proseLines(text: string): string[] {
  let fence: string | null = null
  return text.split('\n').map((line) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1]
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null
      return ''
    }
    if (marker) {
      fence = marker
      return ''
    }
    return line
  })
}

/** GitHub's anchor for a heading: its text without markup, lower-cased, punctuation dropped. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\*\*|__/g, '')
    .replace(/(^|\s)_([^_]+)_(?=\s|$)/g, '$1$2')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** The anchors a Markdown text defines, with GitHub's -1, -2 … for repeated headings. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1]
    if (heading === undefined) continue
    const base = slug(heading)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

/**
 * The links of a Markdown text outside code, with the line each starts on: inline links, whose text
 * may wrap onto the next lines as Prettier leaves it, and reference definitions (`[name]: target`).
 */
function linksOf(text: string): { line: number; target: string }[] {
  const prose = proseLines(text)
    .join('\n')
    .replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length))
  const lineAt = (index: number) => prose.slice(0, index).split('\n').length
  // Link text runs over line breaks but never over a blank line (that ends the paragraph).
  const inline = /!?\[(?:[^\]\n]|\n(?!\s*\n))*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g
  const definition = /^ {0,3}\[[^\]\n]+\]:\s*<?([^\s>]+)>?/gm
  return [...prose.matchAll(inline), ...prose.matchAll(definition)]
    .map((m) => ({ line: lineAt(m.index), target: m[1]! }))
    .sort((a, b) => a.line - b.line)
}

/** Broken relative links and anchors in `files` (path → text); `exists` answers for other paths. */
export function linkProblems(files: Map<string, string>, exists: (file: string) => boolean): string[] {
  const problems: string[] = []
  for (const [file, text] of files) {
    for (const { line, target } of linksOf(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:
      const [pathPart, anchor] = target.split('#') as [string, string | undefined]
      const resolved = pathPart
        ? path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart))
        : file
      const where = `${file}:${line}`
      // A link out of the checkout may resolve on one machine and nowhere else.
      if (resolved === '..' || resolved.startsWith('../')) {
        problems.push(`${where}: ${target} points outside the repository`)
        continue
      }
      const text = files.get(resolved)
      if (text === undefined && !exists(resolved)) {
        problems.push(`${where}: ${target} does not exist`)
        continue
      }
      if (anchor !== undefined && resolved.endsWith('.md')) {
        const anchors = anchorsOf(text ?? '')
        if (!anchors.has(anchor)) problems.push(`${where}: ${target} has no heading #${anchor}`)
      }
    }
  }
  return problems
}

/** A table row over this many characters reads badly as text: write a list instead. */
export const MAX_TABLE_LINE = 160

/** Table rows outside a table (a header and a delimiter row after a blank line) and too-wide rows. */
export function tableProblems(file: string, text: string): string[] {
  const problems: string[] = []
  const lines = proseLines(text)
  const isRow = (line: string | undefined) => line !== undefined && /^\s*\|/.test(line)
  const isDelimiter = (line: string | undefined) =>
    !!line && /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(line)
  for (let i = 0; i < lines.length; i++) {
    if (!isRow(lines[i])) continue
    const start = i
    while (isRow(lines[i + 1])) i++
    const where = `${file}:${start + 1}`
    if (!isDelimiter(lines[start + 1])) {
      problems.push(`${where}: table rows without a header and delimiter row (they render as plain text)`)
    } else if (start > 0 && lines[start - 1]!.trim() !== '') {
      problems.push(`${where}: a table needs a blank line before it (else it joins the paragraph)`)
    }
    for (let row = start; row <= i; row++) {
      if (lines[row]!.length > MAX_TABLE_LINE) {
        problems.push(
          `${file}:${row + 1}: table row of ${lines[row]!.length} characters: use a list for long entries`,
        )
      }
    }
  }
  return problems
}

describe('the docs', () => {
  const files = new Map(docFiles().map((file) => [file, read(file)]))

  it('finds the README, the docs and the decisions', () => {
    expect([...files.keys()]).toEqual(
      expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/decisions/README.md']),
    )
  })

  it('every relative link and #anchor resolves', () => {
    expect(linkProblems(files, (file) => existsSync(path.join(root, file)))).toEqual([])
  })

  it('tables are tables, and readable as text', () => {
    expect([...files].flatMap(([file, text]) => tableProblems(file, text))).toEqual([])
  })

  it("the README's Documentation list has every page of docs/", () => {
    const list = files.get('README.md')!.split('\n## Documentation\n')[1]?.split('\n## ')[0] ?? ''
    const pages = [...files.keys()].filter((f) => /^docs\/[^/]+\.md$/.test(f))
    expect(pages.filter((page) => !list.includes(`](${page})`))).toEqual([])
  })

  it('names only npm scripts that exist (`npm run bench:*` for a family)', () => {
    const scripts = Object.keys(JSON.parse(read('package.json')).scripts as Record<string, string>)
    const unknown = [...files].flatMap(([file, text]) =>
      [...text.matchAll(/\bnpm run ([\w:-]+)(\*?)/g)]
        .filter(
          ([, name, family]) =>
            !(family ? scripts.some((s) => s.startsWith(name!)) : scripts.includes(name!)),
        )
        .map(([match]) => `${file}: ${match}`),
    )
    expect(unknown).toEqual([])
  })

  it('names only repository files that exist (decisions keep the names of their day)', () => {
    const top = 'app|server|tests|docs|bench|scripts|config|deploy|drizzle|public|\\.ci'
    const ignored = read('.gitignore').split('\n').filter(Boolean)
    const named = new RegExp(`\`((?:${top})/[\\w./-]*[\\w/])\``, 'g')
    const missing = [...files]
      .filter(([file]) => !file.startsWith('docs/decisions/'))
      .flatMap(([file, text]) =>
        [...text.matchAll(named)]
          .map((m) => m[1]!)
          .filter((target) => !existsSync(path.join(root, target)))
          .filter((target) => !ignored.some((entry) => target.startsWith(`${entry}/`))) // bench/out: made by a run
          .map((target) => `${file}: ${target}`),
      )
    expect(missing).toEqual([])
  })

  it('the README stays a front door', () => {
    expect(files.get('README.md')!.split('\n').length).toBeLessThan(300)
  })
})

describe('pointers into the docs', () => {
  const skip = new Set([
    'node_modules',
    'build',
    '.git',
    '.data',
    '.react-router',
    'test-results',
    'playwright-report',
  ])
  const texts: [string, string][] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir))) {
      if (skip.has(name)) continue
      const file = dir ? `${dir}/${name}` : name
      if (statSync(path.join(root, file)).isDirectory()) walk(file)
      else if (
        /\.(ts|tsx|js|mjs|md|json|jsonc|toml|yml|yaml|service)$|^Dockerfile$|^\.env\.example$|^run$|Caddyfile$/.test(
          name,
        )
      )
        texts.push([file, read(file)])
    }
  }
  walk('')

  it('the code points only at docs that exist', () => {
    const broken = texts.flatMap(([file, text]) =>
      [...text.matchAll(/\bdocs\/[\w./-]+\.md\b/g)]
        .map((m) => m[0])
        .filter((target) => !existsSync(path.join(root, target)))
        .map((target) => `${file}: ${target}`),
    )
    expect(broken).toEqual([])
  })

  it('nothing points at the notes kept beside the repository, or at a machine’s folders', () => {
    const outside = /\.\.\/shared\/|\bshared\/(DESIGN|STYLE)\.md|\/work\/wt-|\/Users\//
    const self = path.relative(root, import.meta.filename)
    expect(texts.filter(([file, text]) => file !== self && outside.test(text)).map(([file]) => file)).toEqual(
      [],
    )
  })
})

describe('the docs check itself', () => {
  it('makes GitHub anchors', () => {
    expect(slug('Execution: run-code, environments, connected machines')).toBe(
      'execution-run-code-environments-connected-machines',
    )
    expect(slug('`run_command` and _friends_')).toBe('run_command-and-friends')
    expect([...anchorsOf('# A\n\n## Context\n\n```md\n## Not a heading\n```\n\n## Context\n')]).toEqual([
      'a',
      'context',
      'context-1',
    ])
  })

  it('catches a missing file, a missing anchor and skips code and external links', () => {
    const files = new Map([
      ['notes/a.md', '# A\n\n## Here\n\n[ok](b.md#there) [self](#here) [web](https://example.com/x)\n'],
      ['notes/b.md', '# B\n\n## There\n\n[gone](missing.md) [wrong](a.md#nowhere) `[code](nope.md)`\n'],
    ])
    expect(linkProblems(files, () => false)).toEqual([
      'notes/b.md:5: missing.md does not exist',
      'notes/b.md:5: a.md#nowhere has no heading #nowhere',
    ])
  })

  it('catches a link whose text wraps onto the next line, and a reference definition', () => {
    const files = new Map([
      ['notes/a.md', '# A\n\n## Here\n\nSee [the limits\nper place](b.md#limits) and [b][].\n\n[b]: c.md\n'],
      ['notes/b.md', '# B\n\nA [fine\nlink](a.md#here), and [not a link\n\n](nope.md) across a paragraph.\n'],
    ])
    expect(linkProblems(files, () => false)).toEqual([
      'notes/a.md:5: b.md#limits has no heading #limits',
      'notes/a.md:8: c.md does not exist',
    ])
  })

  it('catches a link out of the repository, even where it resolves', () => {
    const files = new Map([
      ['README.md', '[notes](../elsewhere/NOTES.md)\n'],
      ['notes/a.md', '[up](../../x.md)\n'],
    ])
    expect(linkProblems(files, () => true)).toEqual([
      'README.md:1: ../elsewhere/NOTES.md points outside the repository',
      'notes/a.md:1: ../../x.md points outside the repository',
    ])
  })

  it('catches rows after a paragraph, rows without a header and wide rows', () => {
    const wide = `| ${'x'.repeat(MAX_TABLE_LINE)} |`
    const text = ['Text', '| a | b |', '| - | - |', '', '| row | alone |', '', '| h |', '| - |', wide].join(
      '\n',
    )
    expect(tableProblems('t.md', text)).toEqual([
      't.md:2: a table needs a blank line before it (else it joins the paragraph)',
      't.md:5: table rows without a header and delimiter row (they render as plain text)',
      `t.md:9: table row of ${wide.length} characters: use a list for long entries`,
    ])
  })
})
