/**
 * machine_run: runs one command on a machine the person connected (Settings → Machines), in the
 * directory they chose. A stopgap until environments route `provider: machine:<id>` with their
 * policy and audit: here the built-in deny list is applied on the server (and the client applies
 * its own list again), and the call is the caller's own machines only.
 */
import { tool } from 'ai'
import { z } from 'zod'
import { badRequest, forbidden } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { deniedBy } from '../../machines/client/deny.ts'
import { machineProvider } from '../../machines/provider.ts'
import { toToolFailure, type ToolContext } from '../tool-context.ts'

const MAX_SHOWN = 20_000

const MachineRunInput = z.object({
  machine: z.string().min(1).describe('The id of one of your connected machines (Settings → Machines)'),
  command: z.string().min(1).max(10_000).describe('A shell command, run in the machine’s chosen directory'),
  cwd: z.string().optional().describe('A directory inside the machine’s directory, relative to it'),
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(3_600)
    .default(120)
    .describe('Stop the command after this long'),
})

export const MACHINE_RUN_DESCRIPTION =
  "Run a shell command on one of the person's own connected machines (by its id), in the directory " +
  'they chose for it; returns stdout, stderr, exit code and duration. Dangerous commands are refused.'

const tail = (text: string) => (text.length > MAX_SHOWN ? `…${text.slice(-MAX_SHOWN)}` : text)

export function createMachineRunTool(ctx: ToolContext) {
  return tool({
    description: MACHINE_RUN_DESCRIPTION,
    inputSchema: MachineRunInput,
    execute: async ({ machine, command, cwd, timeoutSeconds }) => {
      try {
        const rule = deniedBy(command, [])
        if (rule) throw forbidden(`command refused by the built-in deny list ("${rule}")`)
        if (cwd && (cwd.startsWith('/') || cwd.split('/').includes('..'))) {
          throw badRequest('must be a directory inside the machine’s directory', 'cwd')
        }
        const result = await machineProvider.runCommand(ctx.caller.userId, machine, {
          command,
          cwd,
          timeoutMs: timeoutSeconds * 1000,
          runId: newId('mrun'),
        })
        return {
          ok: true as const,
          machine,
          ...result,
          stdout: tail(result.stdout),
          stderr: tail(result.stderr),
        }
      } catch (err) {
        return toToolFailure(err, 'machine_run')
      }
    },
  })
}
