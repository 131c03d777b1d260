/**
 * The `machine:<id>` provider: the environment operations as calls to a connected machine. Paths
 * are checked here with the same spelling rules as local folders, and again on the machine, which
 * confines them to its directory on the real path. Output is capped like a local command's.
 */
import { compileGlob, globMatches } from '../../lib/glob.ts'
import { badRequest } from '../../lib/errors.ts'
import { callMachine, machineProvider } from '../../machines/provider.ts'
import { MAX_OUTPUT_BYTES, type FileEntry } from '../../machines/protocol.ts'
import { commandTimeout, DEFAULT_LIMITS, type ExecResult } from '../exec/exec-schema.ts'
import { MAX_ENTRIES, MAX_MATCHES, type Entry } from '../files/files-list.ts'
import { sliceLines } from '../files/files.ts'
import { OutputCollector } from '../exec/output.ts'
import { checkRelativePath } from '../files/paths.ts'
import type { EnvironmentProvider } from './provider-schema.ts'
import type { Lister } from '../watch/watch-poll.ts'

const TYPES: Record<FileEntry['type'], Entry['type']> = {
  file: 'file',
  directory: 'folder',
  symlink: 'symlink',
  other: 'other',
}

const none = (text: string) => text

/**
 * A connected machine has its own environment: stored secrets are never sent to it, so a
 * definition that names some is refused (400 on `secrets`) rather than run without them.
 */
export function assertNoMachineSecrets(secrets: readonly string[]): void {
  if (secrets.length === 0) return
  throw badRequest(
    'secrets: stored secrets are not sent to a connected machine (it has its own environment); remove them from the definition',
    'secrets',
  )
}

export function machineFiles(
  target: { ownerId: string; machineId: string },
  redact: (text: string) => string = none,
): EnvironmentProvider {
  const { ownerId, machineId } = target
  const read = async (rel: string) =>
    (await machineProvider.readFile(ownerId, machineId, { path: rel })).content

  return {
    async exec(env, command, opts) {
      const limits = { ...DEFAULT_LIMITS, ...env.limits }
      const timeoutMs = commandTimeout(limits, opts.timeoutSeconds) * 1000
      const cap = limits.outputKb * 1024
      const result = await machineProvider.runCommand(ownerId, machineId, {
        command,
        timeoutMs,
        runId: opts.stopKey,
        maxOutputBytes: Math.min(cap, MAX_OUTPUT_BYTES),
      })
      // The client cuts a long stream to the cap itself (its ends around a marker): what it says
      // the command printed decides whether the stream was cut and how many bytes it made.
      const shown = (text: string, printed = 0) => {
        const out = new OutputCollector(cap)
        out.push(Buffer.from(text, 'utf8'))
        const kept = out.text(redact)
        return {
          ...kept,
          truncated: kept.truncated || printed > out.total,
          bytes: Math.max(out.total, printed),
        }
      }
      const stdout = shown(result.stdout, result.printed?.stdout)
      const stderr = shown(result.stderr, result.printed?.stderr)
      const stopped = result.stopped ? '\n[stopped: the run or chat was cancelled]' : ''
      return {
        stdout: stdout.text,
        stderr: stderr.text + stopped,
        exitCode: result.exitCode,
        signal: result.stopped ? 'SIGTERM' : null,
        timedOut: result.timedOut,
        durationMs: result.durationMs,
        bytesOut: stdout.bytes + stderr.bytes,
        truncated: { stdout: stdout.truncated, stderr: stderr.truncated },
        mechanism: 'machine',
        disk: { usedBytes: 0, limitBytes: 0, overQuota: false },
      } satisfies ExecResult
    },

    async writeFile(input) {
      const rel = checkRelativePath(input.path)
      const { bytes } = await machineProvider.writeFile(ownerId, machineId, {
        path: rel,
        content: input.content,
      })
      return { path: rel, bytes }
    },

    async readFile(input) {
      const rel = checkRelativePath(input.path)
      return sliceLines(rel, await read(rel), input, redact)
    },

    async editFile(input) {
      const rel = checkRelativePath(input.path)
      const text = await read(rel)
      const first = text.indexOf(input.old)
      const count = first < 0 ? 0 : text.split(input.old).length - 1
      if (count !== 1) {
        throw badRequest(
          count === 0
            ? `old: the text was not found in ${rel}; read the file and copy the exact text`
            : `old: the text occurs ${count} times in ${rel}; include more surrounding lines`,
          'old',
        )
      }
      await machineProvider.editFile(ownerId, machineId, {
        path: rel,
        oldText: input.old,
        newText: input.new,
      })
      const bytes = Buffer.byteLength(text) - Buffer.byteLength(input.old) + Buffer.byteLength(input.new)
      return { path: rel, bytes, line: text.slice(0, first).split('\n').length }
    },

    async listDirectory(input) {
      const start = input.path ? checkRelativePath(input.path, 'path', true) : ''
      const entries: Entry[] = []
      const queue = [start]
      while (queue.length > 0 && entries.length <= MAX_ENTRIES) {
        const dir = queue.shift()!
        const listed = await machineProvider.listDirectory(ownerId, machineId, { path: dir })
        for (const e of listed.entries) {
          const path = dir ? `${dir}/${e.name}` : e.name
          const type = TYPES[e.type]
          entries.push({ path, type, size: type === 'file' ? e.size : 0 })
          if (input.recursive && type === 'folder') queue.push(path)
        }
      }
      entries.sort((a, b) => a.path.localeCompare(b.path))
      const truncated = entries.length > MAX_ENTRIES
      return {
        path: start || '.',
        entries: entries.slice(0, MAX_ENTRIES),
        ...(truncated ? { truncated } : {}),
      }
    },

    // The machine matches text literally (it runs no regex engine of ours); the glob is applied here.
    async searchFiles(input) {
      const path = input.path ? checkRelativePath(input.path, 'path', true) : undefined
      if (input.glob !== undefined) checkRelativePath(input.glob, 'glob')
      const { matches } = await machineProvider.searchFiles(ownerId, machineId, {
        query: input.pattern,
        path,
      })
      // A glob without a slash matches the file name, as ripgrep's does for a folder here.
      const glob = input.glob === undefined ? undefined : compileGlob(input.glob)
      const name = (path: string) =>
        input.glob!.includes('/') ? path : path.slice(path.lastIndexOf('/') + 1)
      const kept = glob ? matches.filter((m) => globMatches(glob, name(m.path))) : matches
      const truncated = kept.length >= MAX_MATCHES
      const lines = kept.map((m) => `${m.path}:${m.line}: ${m.text}`)
      const output = lines.length === 0 ? 'No matches.' : lines.join('\n')
      return { output: redact(output), matches: kept.length, truncated, engine: 'machine' }
    },
  }
}

/** One folder listing of the file watcher's: short, so a hung machine cannot hold a command's result. */
const WATCH_LIST_TIMEOUT_MS = 10_000

/**
 * The machine's own folder listing with modification times, for the poll watcher (watch-poll.ts):
 * the machine's files are not on this server's disk, so `fs.watch` cannot see them.
 */
export function machineLister(target: { ownerId: string; machineId: string }): Lister {
  return async (dir) => {
    const params = { path: dir, times: true }
    const { entries } = await callMachine(
      target.ownerId,
      target.machineId,
      'list_directory',
      params,
      WATCH_LIST_TIMEOUT_MS,
    )
    return entries
  }
}
