import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { cycles, importsOf, sourceFiles, type ImportEdge } from './import-graph.ts'

/**
 * The layering README.md describes, lowest first. A server file may import its own folder and any
 * folder of a lower rank; folders that share a rank (accounts/auth, sandbox/cli) may import each
 * other as long as no cycle forms. Folders listed before they exist keep the order fixed for the
 * work that adds them.
 */
export const LAYERS: string[][] = [
  ['lib', 'env.ts'],
  ['db'],
  ['cron'],
  ['access'],
  ['accounts', 'auth'],
  ['keys'],
  ['jobs'],
  ['resources'],
  ['runs'],
  ['scheduler'],
  ['calendar'],
  ['sandbox', 'cli'],
  ['machines'],
  ['environments'],
  ['integrations'],
  // A harness run needs environments (sandbox, policy, audit) and integrations (MCP endpoints); the
  // agent hands it what it resolves for every run (the model key, prices, budgets), so it sits below.
  ['harness'],
  ['agent'],
  ['pages'],
  ['http'],
  ['main.ts'],
]

const root = path.resolve(import.meta.dirname, '../..')

/** `server/jobs/store.ts` → `jobs`; `server/env.ts` → `env.ts`; outside server → undefined. */
function unitOf(file: string): string | undefined {
  if (!file.startsWith('server/')) return undefined
  const unit = file.split('/')[1]!
  return unit.replace(/\.test\.ts$/, '.ts') // server/env.test.ts sits with env.ts
}

function rankOf(unit: string): number {
  return LAYERS.findIndex((layer) => layer.includes(unit))
}

/** Lists the rule breaks of a set of edges; each a line a person can act on. */
export function layeringProblems(files: string[], edges: ImportEdge[]): string[] {
  const problems: string[] = []
  for (const file of files) {
    const unit = unitOf(file)
    if (unit && rankOf(unit) < 0 && !file.endsWith('.md')) {
      problems.push(`${file}: server/${unit} is not in the layer order (tests/architecture/layering.test.ts)`)
    }
  }
  for (const cycle of cycles(files, edges)) {
    problems.push(`file import cycle: ${cycle.join(' ↔ ')}`)
  }
  const folderEdges = edges
    .map((e) => ({ from: unitOf(e.from), to: unitOf(e.to) }))
    .filter((e): e is { from: string; to: string } => !!e.from && !!e.to && e.from !== e.to)
  const folders = [...new Set(folderEdges.flatMap((e) => [e.from, e.to]))]
  for (const cycle of cycles(folders, folderEdges)) {
    const witnesses = edges
      .filter((e) => cycle.includes(unitOf(e.from) ?? '') && cycle.includes(unitOf(e.to) ?? ''))
      .filter((e) => unitOf(e.from) !== unitOf(e.to))
      .map((e) => `${e.from} → ${e.to}`)
    problems.push(`server folder cycle: ${cycle.join(' ↔ ')} (${witnesses.join(', ')})`)
  }
  for (const edge of edges) {
    const from = unitOf(edge.from)
    const to = unitOf(edge.to)
    if (from && to && from !== to && rankOf(from) >= 0 && rankOf(to) > rankOf(from)) {
      problems.push(`${edge.from} imports ${edge.to}: server/${from} sits below server/${to}`)
    }
    if (from && edge.to.startsWith('app/') && !edge.typeOnly) {
      problems.push(`${edge.from} imports ${edge.to}: server code imports no values from app/`)
    }
    const loader = edge.from.startsWith('app/routes/')
    if (edge.from.startsWith('app/') && !loader && edge.to.startsWith('server/') && !edge.typeOnly) {
      problems.push(
        `${edge.from} imports ${edge.to}: only route modules (loaders, actions, API) may import server values; use \`import type\``,
      )
    }
  }
  return problems
}

describe('layering', () => {
  const files = [...sourceFiles(root, 'server'), ...sourceFiles(root, 'app')]
  const edges = files.flatMap((file) => importsOf(root, file))

  it('scans the whole tree', () => {
    expect(files.length).toBeGreaterThan(100)
    expect(edges.length).toBeGreaterThan(300)
  })

  it('has no import cycle and no import against the layer order', () => {
    expect(layeringProblems(files, edges)).toEqual([])
  })

  it('catches a cycle, an upward import and a client value import', () => {
    const fake: ImportEdge[] = [
      { from: 'server/jobs/a.ts', to: 'server/runs/b.ts', typeOnly: false },
      { from: 'server/runs/b.ts', to: 'server/jobs/a.ts', typeOnly: false },
      { from: 'app/lib/x.ts', to: 'server/jobs/a.ts', typeOnly: false },
      { from: 'app/lib/y.ts', to: 'server/jobs/a.ts', typeOnly: true },
    ]
    const problems = layeringProblems(
      ['server/jobs/a.ts', 'server/runs/b.ts', 'app/lib/x.ts', 'app/lib/y.ts'],
      fake,
    )
    expect(problems).toEqual([
      'file import cycle: server/jobs/a.ts ↔ server/runs/b.ts',
      'server folder cycle: jobs ↔ runs (server/jobs/a.ts → server/runs/b.ts, server/runs/b.ts → server/jobs/a.ts)',
      'server/jobs/a.ts imports server/runs/b.ts: server/jobs sits below server/runs',
      'app/lib/x.ts imports server/jobs/a.ts: only route modules (loaders, actions, API) may import server values; use `import type`',
    ])
  })
})
