/**
 * Following a bootstrap while it runs, for the chat's live progress step. In this process every
 * record lifecycle.ts saves is also handed to whoever waits on that environment (a tool call that
 * triggered the build, or one queued behind it). When the folder lives on another instance the
 * build runs there, so the recorded state is read instead, once a second, as the environment page
 * does.
 */
import type { BootstrapRecord } from './bootstrap.ts'
import { findEnvironmentById } from '../store.ts'

/** Gets each new state of a bootstrap (a copy: it may keep it). */
export type BootstrapWatcher = (record: BootstrapRecord) => void

const watchers = new Map<string, Set<BootstrapWatcher>>()

/** Hands the bootstraps of environment `id` to `watcher` until the returned function is called. */
export function watchBootstrap(id: string, watcher: BootstrapWatcher): () => void {
  const set = watchers.get(id) ?? new Set()
  set.add(watcher)
  watchers.set(id, set)
  return () => {
    set.delete(watcher)
    if (set.size === 0 && watchers.get(id) === set) watchers.delete(id)
  }
}

/** Tells this process's watchers of `id` about a saved state. */
export function announceBootstrap(id: string, record: BootstrapRecord) {
  for (const watcher of watchers.get(id) ?? []) watcher(structuredClone(record))
}

/** How often the recorded state is read when the build runs on another instance. */
const FOLLOW_MS = 1_000

/**
 * Reads the recorded bootstrap of `id` once a second and hands on each state that differs from
 * the one recorded when following began (or that one, when it is still running). Resolves once
 * the starting state is read, so the caller starts the work after it; `stop` reads a last time.
 */
export async function followRecordedBootstrap(id: string, watcher: BootstrapWatcher) {
  const read = async () => ((await findEnvironmentById(id))?.bootstrap ?? null) as BootstrapRecord | null
  const first = await read()
  let seen = JSON.stringify(first)
  if (first?.status === 'running') watcher(first)
  const check = async () => {
    const record = await read().catch(() => null) // a missed read is made up by the next
    const text = JSON.stringify(record)
    if (record && text !== seen) {
      seen = text
      watcher(record)
    }
  }
  let stopped = false
  let inFlight: Promise<void> = Promise.resolve()
  const loop = () => {
    if (stopped) return
    inFlight = check().finally(() => {
      if (!stopped) timer = setTimeout(loop, FOLLOW_MS)
    })
  }
  let timer = setTimeout(loop, FOLLOW_MS)
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await inFlight
      await check()
    },
  }
}
