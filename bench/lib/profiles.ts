/**
 * Summaries of what `node --cpu-prof` and `--heapsnapshot-signal` write: the top self-time
 * functions of a CPU profile, and a heap snapshot's live objects grouped by constructor, so two
 * snapshots can be compared (what grew between idle and after load).
 */
import { readFileSync } from 'node:fs'

type ProfileNode = {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
}
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

export type SelfTime = { name: string; where: string; ms: number; share: number }

/** Self time per function (summed over call sites), as a share of busy time (idle excluded). */
export function topSelfTime(file: string, limit = 15): { busyMs: number; entries: SelfTime[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const byNode = new Map<number, number>()
  profile.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
  const byFunction = new Map<string, { name: string; where: string; us: number }>()
  for (const node of profile.nodes) {
    const us = byNode.get(node.id) ?? 0
    if (!us) continue
    const { functionName, url, lineNumber } = node.callFrame
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : ''
    const key = `${functionName}@${where}`
    const entry = byFunction.get(key) ?? { name: functionName || '(anonymous)', where, us: 0 }
    entry.us += us
    byFunction.set(key, entry)
  }
  const busy = [...byFunction.values()].filter((e) => e.name !== '(idle)')
  const busyUs = busy.reduce((sum, e) => sum + e.us, 0)
  const entries = busy
    .sort((a, b) => b.us - a.us)
    .slice(0, limit)
    .map((e) => ({ name: e.name, where: e.where, ms: e.us / 1000, share: e.us / busyUs }))
  return { busyMs: busyUs / 1000, entries }
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/')
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length)
  return url.replace(/^file:\/\/.*?\/(build|server|app)\//, '$1/')
}

type HeapSnapshot = {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } }
  nodes: number[]
  strings: string[]
}

export type HeapGroup = { key: string; count: number; bytes: number }

/** Live objects by (type, constructor/name) with their count and self size. */
export function heapGroups(file: string): Map<string, HeapGroup> {
  const heap = JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot
  const fields = heap.snapshot.meta.node_fields
  const types = heap.snapshot.meta.node_types[0]
  const width = fields.length
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ]
  const groups = new Map<string, HeapGroup>()
  for (let i = 0; i < heap.nodes.length; i += width) {
    const type = types[heap.nodes[i + typeAt]!]!
    // Strings and code are grouped by kind only: their "names" are their contents.
    const named = type === 'object' || type === 'closure' || type === 'native'
    const key = named ? `${type}:${heap.strings[heap.nodes[i + nameAt]!]}` : type
    const group = groups.get(key) ?? { key, count: 0, bytes: 0 }
    group.count += 1
    group.bytes += heap.nodes[i + sizeAt]!
    groups.set(key, group)
  }
  return groups
}

/** Total self size, and the groups that grew most from `before` to `after`. */
export function heapGrowth(before: Map<string, HeapGroup>, after: Map<string, HeapGroup>, limit = 15) {
  const total = (m: Map<string, HeapGroup>) => [...m.values()].reduce((s, g) => s + g.bytes, 0)
  const grew = [...after.values()]
    .map((g) => {
      const was = before.get(g.key)
      return { key: g.key, count: g.count - (was?.count ?? 0), bytes: g.bytes - (was?.bytes ?? 0) }
    })
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, limit)
  return { beforeMb: total(before) / 2 ** 20, afterMb: total(after) / 2 ** 20, grew }
}
