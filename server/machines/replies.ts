/**
 * What a machine client's replies and streamed output must look like before the server uses them.
 * The client is its owner's program, so anyone's: a reply whose `stdout` was `{ "length": 4e7 }`
 * instead of text was read as an array (`Buffer.from` allocated and looped forty million times on
 * the event loop, fourteen seconds in the tests), and a malformed listing or number went on into
 * the run and its audit. A reply is checked against its method's shape, or the call fails.
 */
import { z } from 'zod'
import type { MachineCalls, MachineMethod } from './protocol.ts'

const count = z.number().int().min(0)
/**
 * What the audit's integer columns hold. A reply whose duration was 1e12 (or 0.5) could not be
 * audited: the command had run on the machine, and the person got a 500 (decision 0419).
 */
const INT32_MAX = 2 ** 31 - 1

/**
 * The longest name a file system gives one entry (255 bytes on Linux; 255 UTF-16 units on macOS
 * and Windows, which is at most this many characters here).
 */
export const MAX_NAME_LENGTH = 255

/**
 * One entry of a folder: a name, not a path. The server joins it to the folder it asked for, so a
 * name holding a `/`, or one that is `.` or `..`, named files outside the listing (a file event for
 * `../../etc/cron.d/x`), and `a/a/a/…` sixty thousand levels deep cost the file watcher's
 * comparison about twenty seconds of the event loop (decision 0419).
 */
const EntryName = z
  .string()
  .min(1)
  .max(MAX_NAME_LENGTH)
  .refine((name) => name !== '.' && name !== '..' && !/[/\0]/.test(name), {
    error: 'must be one name in the folder (no "/", not "." or "..")',
  })

/** The longest path the file tools take (MAX_PATH_LENGTH of environments/files/paths.ts). */
const MAX_PATH_LENGTH = 1024

/** A path a search found, relative to the machine's folder and inside it. */
const MatchPath = z
  .string()
  .min(1)
  .max(MAX_PATH_LENGTH)
  .refine((path) => !path.startsWith('/') && !/[\0]/.test(path) && !path.split('/').includes('..'), {
    error: 'must be a path inside the folder',
  })

const Entry = z.object({
  name: EntryName,
  type: z.enum(['file', 'directory', 'symlink', 'other']),
  size: z.number().min(0),
  mtimeMs: z.number().optional(),
})
const Match = z.object({ path: MatchPath, line: count, text: z.string() })

const REPLIES: { [M in MachineMethod]: z.ZodType<MachineCalls[M]['result']> } = {
  run_command: z.object({
    exitCode: z
      .number()
      .int()
      .min(-INT32_MAX - 1)
      .max(INT32_MAX)
      .nullable(),
    stdout: z.string(),
    stderr: z.string(),
    durationMs: z.number().int().min(0).max(INT32_MAX),
    timedOut: z.boolean(),
    stopped: z.boolean(),
    printed: z.object({ stdout: count, stderr: count }).optional(),
  }),
  read_file: z.object({ content: z.string() }),
  write_file: z.object({ bytes: count }),
  edit_file: z.object({ replacements: count }),
  list_directory: z.object({ entries: z.array(Entry) }),
  search_files: z.object({ matches: z.array(Match) }),
  stop: z.object({ stopped: count }),
}

/** The reply as its method's result, or a sentence saying what is wrong with it. */
export function checkReply<M extends MachineMethod>(
  method: M,
  reply: unknown,
): { ok: true; result: MachineCalls[M]['result'] } | { ok: false; why: string } {
  const parsed = REPLIES[method].safeParse(reply)
  if (parsed.success) return { ok: true, result: parsed.data as MachineCalls[M]['result'] }
  const issue = parsed.error.issues[0]!
  return { ok: false, why: `${issue.path.join('.') || 'the reply'}: ${issue.message}` }
}

/** A streamed output notification, or undefined when it is not one. */
export const OutputNotice = z.object({
  callId: z.string(),
  stream: z.enum(['stdout', 'stderr']),
  text: z.string(),
})
