/**
 * Decision 0404: a command line is judged in a worker thread, never on the server's event loop.
 * `decideCommand` (policy.ts) is the judgement itself, so the only module that serves requests and
 * may call it is none: the worker (judge-worker.ts) is its one importer outside the tests, and the
 * command box, the agent's tools and the harness hooks go through `judgeCommand` (judge.ts). A
 * timing test cannot tell a judge on the loop from one in a worker any more (one line costs about
 * 0.12 s, and forty interleave with health), so the rule is checked where it is kept: the imports.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { resolve, sourceFiles } from './import-graph.ts'

const root = path.resolve(import.meta.dirname, '../..')
const POLICY = 'server/environments/policy/policy.ts'
const WORKER = 'server/environments/policy/judge-worker.ts'

/** How a file reaches `decideCommand` from policy.ts: by name, through a namespace, or re-exported. */
function reachesDecideCommand(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8')
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind)
  const found: string[] = []
  for (const statement of source.statements) {
    const isImport = ts.isImportDeclaration(statement)
    if (!isImport && !ts.isExportDeclaration(statement)) continue
    const specifier = statement.moduleSpecifier
    if (!specifier || !ts.isStringLiteral(specifier)) continue
    if (resolve(root, file, specifier.text) !== POLICY) continue
    const bindings = isImport ? statement.importClause?.namedBindings : statement.exportClause
    if (!bindings) {
      if (!isImport) found.push(`${file}: export * from policy.ts`)
      continue
    }
    if (ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings)) {
      found.push(`${file}: * as ${bindings.name.text} from policy.ts`)
      continue
    }
    for (const element of bindings.elements) {
      const imported = (element.propertyName ?? element.name).text
      if (imported === 'decideCommand') found.push(`${file}: { decideCommand } from policy.ts`)
    }
  }
  return found
}

describe('the command judge stays off the event loop', () => {
  const files = [...sourceFiles(root, 'server'), ...sourceFiles(root, 'app')].filter(
    (f) => !/\.test\.tsx?$/.test(f) && f !== POLICY,
  )

  it('only the judge worker imports decideCommand', () => {
    // Exactly the worker's import, so a scan that found nothing would fail too.
    const reaching = files.flatMap(reachesDecideCommand)
    expect(reaching).toEqual([`${WORKER}: { decideCommand } from policy.ts`])
  })
})
