/**
 * What a conversation may execute, read once when it starts: the org's switches for run-code and
 * cli, the CLIs available on this server (for the cli tool's description), and whether the caller
 * has any environment definition (personal or shared). Tools the org
 * switched off are left out of the tool set, so the model never sees them.
 */
import { readOrgSettings } from '../accounts/org-settings.ts'
import type { Caller } from '../access/caller.ts'
import { cliRegistry } from '../cli/registered.ts'
import { ownerFor } from '../resources/files.ts'
import { selectResourceSummaries } from '../resources/store.ts'
import type { ExecutionContext } from './tool-context.ts'

export async function loadExecution(caller: Caller): Promise<ExecutionContext> {
  const [settings, clis, personal, shared] = await Promise.all([
    readOrgSettings(caller.orgId),
    cliRegistry().describe(),
    selectResourceSummaries(ownerFor(caller, 'personal'), 'environments/'),
    selectResourceSummaries(ownerFor(caller, 'shared'), 'environments/'),
  ])
  const hasEnvironments = [...personal, ...shared].some((file) => file.path.endsWith('.md'))
  return { settings, clis, hasEnvironments }
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
