/**
 * The cli tool: one of the command-line tools registered in server/cli/registered.ts, run
 * isolated (see ShellCliAdapter). Its description lists the ones available on this server, read
 * when the conversation starts. Org admins can switch it off (org settings `cli`).
 */
import { tool } from 'ai'
import { z } from 'zod'
import { readOrgSettings } from '../../accounts/org-settings.ts'
import type { CliResult } from '../../cli/adapter.ts'
import { cliRegistry } from '../../cli/registered.ts'
import type { CliDescription } from '../../cli/registry.ts'
import { badRequest, forbidden } from '../../lib/errors.ts'
import { toToolFailure, type ToolContext, type ToolFailure } from '../tool-context.ts'

const CliInput = z.object({
  name: z.string().min(1).max(64).describe('Which tool, e.g. git or rg (see the list in the description)'),
  args: z
    .array(z.string().max(4096))
    .max(100)
    .default([])
    .describe('Arguments, one per item (no shell: quotes, pipes and $(…) are passed literally)'),
  input: z.string().max(1_000_000).optional().describe('Text given to the tool on stdin'),
})

export const CLI_DESCRIPTION =
  'Run a command-line tool this server offers, in an empty scratch dir without network, and get ' +
  '{ stdout, stderr, exitCode }. Pass text to work on as input (stdin).'

/** The description with the tools available here, e.g. "… Available: git (…), rg (…)." */
export function describeCliTool(clis: CliDescription[]): string {
  const available = clis.filter((c) => c.available)
  if (available.length === 0) return `${CLI_DESCRIPTION} No tools are available on this server.`
  return `${CLI_DESCRIPTION} Available: ${available.map((c) => `${c.name} (${c.description})`).join('; ')}.`
}

export type CliOutput = ({ ok: true; name: string } & CliResult) | ToolFailure

export function createCliTool(ctx: ToolContext) {
  return tool({
    description: describeCliTool(ctx.execution?.clis ?? []),
    inputSchema: CliInput,
    execute: async ({ name, args, input }): Promise<CliOutput> => {
      try {
        if (!(await readOrgSettings(ctx.caller.orgId)).cli) {
          throw forbidden('Command-line tools are switched off for this organisation (Settings → Agent)')
        }
        const adapter = cliRegistry().get(name)
        if (!adapter || !(await adapter.isAvailable())) {
          throw badRequest(`name: ${name} is not available on this server`, 'name')
        }
        return { ok: true, name, ...(await adapter.execute(args, input)) }
      } catch (err) {
        return toToolFailure(err, 'cli')
      }
    },
  })
}
