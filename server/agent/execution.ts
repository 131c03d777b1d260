/**
 * What a conversation may execute, read once when it starts: the org's switches for run-code and
 * cli, and the CLIs available on this server (for the cli tool's description). Tools the org
 * switched off are left out of the tool set, so the model never sees them.
 */
import { readOrgSettings } from '../accounts/org-settings.ts'
import type { Caller } from '../access/caller.ts'
import { cliRegistry } from '../cli/registered.ts'
import type { ExecutionContext } from './tool-context.ts'

export async function loadExecution(caller: Pick<Caller, 'orgId'>): Promise<ExecutionContext> {
  const [settings, clis] = await Promise.all([readOrgSettings(caller.orgId), cliRegistry().describe()])
  return { settings, clis }
}

/** Whether a tool belongs in this conversation's tool set. Without a loaded context: none of them. */
export function executionToolEnabled(
  name: 'run-code' | 'cli' | 'run_command',
  execution: ExecutionContext | undefined,
): boolean {
  if (!execution) return false
  if (name === 'run-code') return execution.settings.runCode
  if (name === 'run_command') return execution.settings.exec
  return execution.settings.cli && execution.clis.some((c) => c.available)
}
