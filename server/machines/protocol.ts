/**
 * The JSON-RPC contract between the server and a machine client (both ends import it; the client
 * bundle inlines it). Calls go server → client except `register`; `output` is a notification.
 */
import { createHash } from 'node:crypto'

export const PROTOCOL_VERSION = 2

/**
 * A client file's build: the start of its SHA-256. The client digests its own file and sends it
 * after `+` in its version (`1.2.0+3f9a…`); the server digests the client it serves now, so a
 * machine running an older download shows as out of date (a fix to the client reaches a machine
 * only when its file is downloaded again).
 */
export const clientBuildOf = (source: string | Buffer) =>
  createHash('sha256').update(source).digest('hex').slice(0, 12)

/** The build a client's version names, or null for clients before builds were sent. */
export const buildOfVersion = (version: string) => /\+([0-9a-f]{12})$/.exec(version)?.[1] ?? null

export type RegisterParams = {
  /**
   * The machine's id and label come from the token it connects with; a client sends an id only
   * when it was given one (refused unless it is the token's; required for tokens made before ids
   * came from tokens).
   */
  id?: string
  label?: string
  /** Take the place of a connection of the same machine that is still live (`--replace`, or a reconnect). */
  replace?: boolean
  os: string
  version: string
  dir: string
  /** Run ids whose commands are still running here (after a reconnect). */
  activeRuns: string[]
}

/** What registration answers: the machine the client now is. */
export type RegisterResult = { ok: true; id: string; label: string; instance: string }

/** Why a registration is refused (JSON-RPC error `data.code`); the client exits on any of them. */
export const REGISTER_REFUSALS = [
  'machine_connected',
  'machine_limit',
  'wrong_machine',
  'token_revoked',
] as const

export type RunCommandParams = {
  callId: string
  command: string
  cwd?: string
  timeoutMs: number
  runId: string
  /**
   * Bytes of each stream the server keeps: the client replies with at most this much (the middle
   * cut with a marker) and streams no more. Capped at MAX_OUTPUT_BYTES; clients before it kept a
   * million characters and streamed everything.
   */
  maxOutputBytes?: number
}

/**
 * The most of one stream a client keeps or streams for a command. Both streams, JSON-escaped at
 * worst (six bytes a control byte), stay under the server's 16 MiB message limit.
 */
export const MAX_OUTPUT_BYTES = 1024 * 1024

/** What ends streamed output past `cap` bytes of a stream, on the client and on the server alike. */
export const notStreamedMarker = (cap: number) => `\n[… output past ${cap} bytes not streamed …]\n`
export type RunCommandResult = {
  exitCode: number | null
  stdout: string
  stderr: string
  durationMs: number
  timedOut: boolean
  stopped: boolean
  /**
   * How many bytes each stream printed in all, kept or not: the reply holds at most the cap, so
   * without these the server could not tell a cut stream from a whole one. Older clients omit them.
   */
  printed?: { stdout: number; stderr: number }
}
export type OutputParams = { callId: string; stream: 'stdout' | 'stderr'; text: string }

export type FileEntry = {
  name: string
  type: 'file' | 'directory' | 'symlink' | 'other'
  size: number
  /** Only when asked for (`times`): the file watcher compares it (clients before it never send it). */
  mtimeMs?: number
}
/** An entry's type from its `lstat` (links are never followed: they could point outside). */
export function entryType(s: { isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean }) {
  if (s.isSymbolicLink()) return 'symlink'
  if (s.isDirectory()) return 'directory'
  return s.isFile() ? 'file' : 'other'
}
export type SearchMatch = { path: string; line: number; text: string }

/** Each call the server can make, with its params and result. */
export type MachineCalls = {
  run_command: { params: RunCommandParams; result: RunCommandResult }
  read_file: { params: { path: string }; result: { content: string } }
  write_file: { params: { path: string; content: string }; result: { bytes: number } }
  edit_file: { params: { path: string; oldText: string; newText: string }; result: { replacements: number } }
  list_directory: { params: { path: string; times?: boolean }; result: { entries: FileEntry[] } }
  search_files: { params: { query: string; path?: string }; result: { matches: SearchMatch[] } }
  stop: { params: { runId: string }; result: { stopped: number } }
}
export type MachineMethod = keyof MachineCalls

/** Error codes the client answers with (JSON-RPC error `data.code`). */
export const CLIENT_ERRORS = {
  path_outside_dir: 403,
  command_denied: 403,
  not_found: 404,
  bad_request: 400,
} as const
export type ClientErrorCode = keyof typeof CLIENT_ERRORS

/**
 * WebSocket close codes the server uses: a replaced, revoked or disconnected client stops; after
 * any other close it reconnects.
 */
export const CLOSE_CODES = { going: 4000, replaced: 4002, revoked: 4003, disconnected: 4004 } as const
