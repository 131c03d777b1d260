import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { cycles, importsOf, sourceFiles, type ImportEdge } from './import-graph.ts'

/**
 * The layering docs/architecture.md describes, lowest first. A server file may import its own folder and any
 * folder of a lower rank; folders that share a rank (accounts/auth, sandbox/cli) may import each
 * other as long as no cycle forms. Folders listed before they exist keep the order fixed for the
 * work that adds them.
 */
export const LAYERS: string[][] = [
  ['lib', 'env.ts', 'production-mode.ts'],
  ['db'],
  ['cron'],
  ['access'],
  ['accounts', 'auth'],
  ['keys'],
  ['tokens'],
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
  // Clockwork as an MCP server: the agent's tools, offered to people's own clients.
  ['mcp-server'],
  ['pages'],
  ['http'],
  ['start.ts'],
  ['main.ts', 'dev.ts'],
]

/**
 * Inside a folder, the same rule one level down: its subfolders (and the files at its top), lowest
 * first. A file may import its own subfolder and any lower one; a new subfolder or top-level file
 * must be placed here.
 */
export const INNER_LAYERS: Record<string, string[][]> = {
  environments: [
    ['environments-quota.ts'], // how many records an organisation may hold
    ['store.ts', 'instance.ts'], // the records and where this instance keeps folders
    ['policy'], // may this command line run
    ['files'], // the file tools, confined to the root, and the disk quota
    ['exec'], // running one command, sandboxed and limited
    ['org-disk.ts'], // the organisation's disk total, lowering each environment's quota
    ['definition'], // environments/<name>.md and the org's layer over it
    ['skills'], // self-made skills
    ['bootstrap'], // making the working tree: clone, setup, snapshot, lifecycle
    ['watch'], // file events around a command
    ['providers'], // where the tools act: local, docker, a machine
    ['service.ts'], // the use cases
    ['operations'], // the six operations wherever the folder lives, forwarding, cancel
    ['browse'], // the Environments pages' views
  ],
}

const root = path.resolve(import.meta.dirname, '../..')

/**
 * The unit a file belongs to below `prefix`: `server/jobs/store.ts` → `jobs`, `server/env.ts` →
 * `env.ts` (with prefix `server/`); outside the prefix → undefined.
 */
function unitOf(file: string, prefix = 'server/'): string | undefined {
  if (!file.startsWith(prefix)) return undefined
  const unit = file.slice(prefix.length).split('/')[0]!
  return unit.replace(/\.test\.ts$/, '.ts') // server/env.test.ts sits with env.ts
}

/** Unplaced units, unit cycles and imports against `layers` among the files below `prefix`. */
function orderProblems(files: string[], edges: ImportEdge[], layers: string[][], prefix: string): string[] {
  const problems: string[] = []
  const rankOf = (unit: string) => layers.findIndex((layer) => layer.includes(unit))
  const unit = (file: string) => unitOf(file, prefix)
  for (const file of files) {
    const u = unit(file)
    if (u && rankOf(u) < 0 && !file.endsWith('.md')) {
      problems.push(`${file}: ${prefix}${u} is not in the layer order (tests/architecture/layering.test.ts)`)
    }
  }
  const unitEdges = edges
    .map((e) => ({ from: unit(e.from), to: unit(e.to) }))
    .filter((e): e is { from: string; to: string } => !!e.from && !!e.to && e.from !== e.to)
  const units = [...new Set(unitEdges.flatMap((e) => [e.from, e.to]))]
  for (const cycle of cycles(units, unitEdges)) {
    const witnesses = edges
      .filter((e) => cycle.includes(unit(e.from) ?? '') && cycle.includes(unit(e.to) ?? ''))
      .filter((e) => unit(e.from) !== unit(e.to))
      .map((e) => `${e.from} → ${e.to}`)
    problems.push(`${prefix.slice(0, -1)} folder cycle: ${cycle.join(' ↔ ')} (${witnesses.join(', ')})`)
  }
  for (const edge of edges) {
    const from = unit(edge.from)
    const to = unit(edge.to)
    if (from && to && from !== to && rankOf(from) >= 0 && rankOf(to) > rankOf(from)) {
      problems.push(`${edge.from} imports ${edge.to}: ${prefix}${from} sits below ${prefix}${to}`)
    }
  }
  return problems
}

/** Lists the rule breaks of a set of edges; each a line a person can act on. */
export function layeringProblems(files: string[], edges: ImportEdge[]): string[] {
  const problems: string[] = []
  for (const cycle of cycles(files, edges)) {
    problems.push(`file import cycle: ${cycle.join(' ↔ ')}`)
  }
  problems.push(...orderProblems(files, edges, LAYERS, 'server/'))
  for (const [folder, layers] of Object.entries(INNER_LAYERS)) {
    problems.push(...orderProblems(files, edges, layers, `server/${folder}/`))
  }
  for (const edge of edges) {
    if (unitOf(edge.from) && edge.to.startsWith('app/') && !edge.typeOnly) {
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

  it('catches an import against the order inside a folder, and an unplaced subfolder', () => {
    const fake: ImportEdge[] = [
      { from: 'server/environments/policy/a.ts', to: 'server/environments/exec/b.ts', typeOnly: true },
      { from: 'server/environments/exec/b.ts', to: 'server/environments/policy/c.ts', typeOnly: false },
    ]
    const files = [
      'server/environments/policy/a.ts',
      'server/environments/exec/b.ts',
      'server/environments/policy/c.ts',
      'server/environments/misc/d.ts',
    ]
    expect(layeringProblems(files, fake)).toEqual([
      'server/environments/misc/d.ts: server/environments/misc is not in the layer order (tests/architecture/layering.test.ts)',
      'server/environments folder cycle: exec ↔ policy (server/environments/policy/a.ts → server/environments/exec/b.ts, server/environments/exec/b.ts → server/environments/policy/c.ts)',
      'server/environments/policy/a.ts imports server/environments/exec/b.ts: server/environments/policy sits below server/environments/exec',
    ])
  })
})
