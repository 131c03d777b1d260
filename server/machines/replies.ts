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
const Entry = z.object({
  name: z.string(),
  type: z.enum(['file', 'directory', 'symlink', 'other']),
  size: z.number().min(0),
  mtimeMs: z.number().optional(),
})
const Match = z.object({ path: z.string(), line: count, text: z.string() })

const REPLIES: { [M in MachineMethod]: z.ZodType<MachineCalls[M]['result']> } = {
  run_command: z.object({
    exitCode: z.number().int().nullable(),
    stdout: z.string(),
    stderr: z.string(),
    durationMs: z.number().min(0),
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
