import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

/** One import edge between two files of the repo (paths relative to the root, `/`-separated). */
export interface ImportEdge {
  from: string
  to: string
  /** True when every name it brings in is a type (`import type`, `export type`, `{ type X }` only). */
  typeOnly: boolean
}

const SOURCE = /\.(ts|tsx)$/

/** Every .ts/.tsx file below `dir` (relative to `root`), skipping generated and test-only folders. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = []
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(root, rel))) {
      if (name === 'node_modules' || name.startsWith('.') || name === '+types') continue
      const child = path.posix.join(rel, name)
      if (statSync(path.join(root, child)).isDirectory()) walk(child)
      else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(child)
    }
  }
  walk(dir)
  return out.sort()
}

/** Resolves a specifier to a repo file, or undefined for packages and generated `+types`. */
export function resolve(root: string, from: string, specifier: string): string | undefined {
  let target: string
  if (specifier.startsWith('#server/')) target = 'server/' + specifier.slice('#server/'.length)
  else if (specifier.startsWith('#app/')) target = 'app/' + specifier.slice('#app/'.length)
  else if (specifier.startsWith('#tests/')) target = 'tests/' + specifier.slice('#tests/'.length)
  else if (specifier.startsWith('.')) target = path.posix.join(path.posix.dirname(from), specifier)
  else return undefined
  if (target.includes('/+types/')) return undefined
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, `${target}/index.ts`]) {
    if (SOURCE.test(candidate) && existsSync(path.join(root, candidate))) return candidate
  }
  if (/\.[a-z0-9]+$/i.test(target) && !SOURCE.test(target) && existsSync(path.join(root, target))) {
    return undefined // a stylesheet, JSON or asset: no code
  }
  throw new Error(`${from}: cannot resolve import '${specifier}'`)
}

/** Whether a top-level import/export declaration brings in values (not only types). */
function bringsValues(node: ts.Statement): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause
    if (!clause) return true // side-effect import
    if (clause.isTypeOnly) return false
    if (clause.name) return true
    const bindings = clause.namedBindings
    if (!bindings || ts.isNamespaceImport(bindings)) return true
    return bindings.elements.length === 0 || bindings.elements.some((e) => !e.isTypeOnly)
  }
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return false
    const clause = node.exportClause
    if (!clause || !ts.isNamedExports(clause)) return true
    return clause.elements.some((e) => !e.isTypeOnly)
  }
  return true
}

/** The import edges of one file: static imports, re-exports and dynamic `import('…')`. */
export function importsOf(root: string, file: string): ImportEdge[] {
  const text = readFileSync(path.join(root, file), 'utf8')
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind)
  const edges: ImportEdge[] = []
  const add = (specifier: string, typeOnly: boolean) => {
    const to = resolve(root, file, specifier)
    if (to) edges.push({ from: file, to, typeOnly })
  }
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      add(statement.moduleSpecifier.text, !bringsValues(statement))
    }
  }
  // Dynamic imports and `typeof import('…')` anywhere in the file.
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false)
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node.argument.literal.text, true)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return edges
}

/** Strongly connected components with more than one node (or a self-loop): the import cycles. */
export function cycles(nodes: string[], edges: Array<{ from: string; to: string }>): string[][] {
  const next = new Map<string, string[]>(nodes.map((n) => [n, []]))
  for (const e of edges) next.get(e.from)?.push(e.to)
  let index = 0
  const indexOf = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const connect = (v: string) => {
    indexOf.set(v, index)
    low.set(v, index)
    index++
    stack.push(v)
    onStack.add(v)
    for (const w of next.get(v) ?? []) {
      if (!indexOf.has(w)) {
        connect(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, indexOf.get(w)!))
      }
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) found.push(component.sort())
    }
  }
  for (const n of nodes) if (!indexOf.has(n)) connect(n)
  return found
}
