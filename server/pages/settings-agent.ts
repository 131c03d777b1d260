/**
 * Server side of Settings → Agent (app/routes/_app.settings.agent.tsx): the organisation's
 * switches for the agent's execution tools, what the sandbox isolates on this server, and the
 * command-line tools available here.
 */
import { getOrgSettings, updateOrgSettings } from '../accounts/org-settings.ts'
import type { Caller } from '../access/caller.ts'
import { cliRegistry } from '../cli/registered.ts'
import { badRequest } from '../lib/errors.ts'
import { sandboxIsolation } from '../sandbox/index.ts'
import { readForm, runIntent } from './forms.ts'

export async function loadAgentSettings(caller: Caller) {
  const [org, isolation, clis] = await Promise.all([
    getOrgSettings(caller),
    sandboxIsolation(),
    cliRegistry().describe(),
  ])
  return { ...org, orgName: caller.orgName, isolation, clis }
}

const SWITCHES = ['runCode', 'cli', 'webFetch'] as const

/** intent "toggle" with `setting` (runCode | cli | webFetch) and `enabled` ("true" | "false"). */
export async function saveAgentSettings(caller: Caller, request: Request) {
  const { intent = '', setting = '', enabled = '' } = await readForm(request)
  return runIntent(intent, async () => {
    if (intent !== 'toggle') throw badRequest(`intent: unknown action "${intent}"`, 'intent')
    if (!(SWITCHES as readonly string[]).includes(setting))
      throw badRequest('setting: unknown setting', 'setting')
    if (enabled !== 'true' && enabled !== 'false') throw badRequest('enabled: true or false', 'enabled')
    return (await updateOrgSettings(caller, { [setting]: enabled === 'true' })).settings
  })
}
