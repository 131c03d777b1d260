/**
 * The run-code tool: JavaScript the agent writes, run in the sandbox (server/sandbox) with the
 * conversation's allowlisted app actions on the bridge. Org admins can switch it off
 * (org settings `runCode`); the switch is checked again at every call, so turning it off takes
 * effect in conversations already under way.
 */
import { tool } from 'ai'
import { readOrgSettings } from '../../accounts/org-settings.ts'
import { env } from '../../env.ts'
import { forbidden } from '../../lib/errors.ts'
import { parseHostList } from '../../lib/outbound.ts'
import { runCode, RunCodeInput, type RunCodeResult } from '../../sandbox/run-code.ts'
import { createSandboxActions } from '../sandbox-actions.ts'
import { toToolFailure, type ToolContext, type ToolFailure } from '../tool-context.ts'

export const RUN_CODE_DESCRIPTION =
  'Run JavaScript (an ES module on Node: import, top-level await; console.log prints) in an isolated ' +
  'sandbox and get { stdout, stderr, exitCode, timedOut, durationMs }. Use it to compute, parse or ' +
  'transform data. No network, no files but a temp dir, no child processes. Globals: ' +
  "appAction(name, input) with name 'manage-jobs' (action list/create/update), 'workspace' " +
  "(action list/read) or 'clock', acting with the person's rights; providerFetch(url, init) for " +
  'hosts the server allows.'

export type RunCodeOutput = ({ ok: true } & RunCodeResult) | ToolFailure

export function createRunCodeTool(ctx: ToolContext) {
  return tool({
    description: RUN_CODE_DESCRIPTION,
    inputSchema: RunCodeInput,
    execute: async (input): Promise<RunCodeOutput> => {
      try {
        if (!(await readOrgSettings(ctx.caller.orgId)).runCode) {
          throw forbidden('Running code is switched off for this organisation (Settings → Agent)')
        }
        const result = await runCode(input, {
          actions: createSandboxActions(ctx),
          fetchAllow: parseHostList(env().SANDBOX_FETCH_ALLOW),
        })
        return { ok: true, ...result }
      } catch (err) {
        return toToolFailure(err, 'run-code')
      }
    },
  })
}
