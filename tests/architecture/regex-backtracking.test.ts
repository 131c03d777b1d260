/**
 * No regular expression in the server's code (or the app's, which renders on the server) can be
 * made to backtrack past linear time: each runs on the one event loop (or in the command judge's
 * worker) over text a tenant may write, and a quadratic one over a long enough text holds
 * everyone's requests. recheck decides it for each regular expression literal; one built at run
 * time is checked where it is built (delivery-fields.ts caps its input first). Seen before this
 * test: `/\/+$/` on a URL, a ripgrep line's parser over a path of `:0:`, a shell's `-c` flag over a
 * word of 60,000 letters (three seconds of a judge's time).
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { check } from 'recheck'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { sourceFiles } from './import-graph.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

/** Every regular expression literal in the non-test sources of `dir`, with where it is. */
function literals(dir: string): { where: string; source: string; flags: string }[] {
  const found: { where: string; source: string; flags: string }[] = []
  for (const file of sourceFiles(ROOT, dir)) {
    if (/\.test\.tsx?$/.test(file)) continue
    const text = readFileSync(path.join(ROOT, file), 'utf8')
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = node.getText(source)
        const end = literal.lastIndexOf('/')
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
        found.push({ where: `${file}:${line}`, source: literal.slice(1, end), flags: literal.slice(end + 1) })
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

describe('regular expressions', () => {
  it('in server and app code all match in linear time', async () => {
    const all = [...literals('server'), ...literals('app')]
    expect(all.length).toBeGreaterThan(100)
    const unsafe: string[] = []
    for (const { where, source, flags } of all) {
      const verdict = await check(source, flags, { timeout: 30_000 })
      if (verdict.status !== 'safe') {
        const attack = verdict.status === 'vulnerable' ? `, e.g. ${verdict.attack.pattern}` : ''
        unsafe.push(`${where} /${source}/${flags}: ${verdict.status}${attack}`)
      }
    }
    expect(unsafe, 'make each linear, or cap its input before it runs').toEqual([])
  }, 300_000)
})
