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
import { runForm } from './forms.ts'

export async function loadAgentSettings(caller: Caller) {
  const [org, isolation, clis] = await Promise.all([
    getOrgSettings(caller),
    sandboxIsolation(),
    cliRegistry().describe(),
  ])
  return { ...org, orgName: caller.orgName, isolation, clis }
}

const SWITCHES = ['runCode', 'cli', 'webFetch', 'exec'] as const
const LIMITS = ['timeoutSeconds', 'cpuSeconds', 'memoryMb', 'processes', 'diskMb', 'outputKb'] as const

/**
 * intent "toggle" with `setting` (runCode | cli | webFetch | exec) and `enabled` ("true" | "false"); intent
 * "exec-controls" with `runtimes` (comma-separated), one field per limit (empty: no org default)
 * and `deny` (one pattern per line).
 */
export async function saveAgentSettings(caller: Caller, request: Request) {
  return runForm(request, async (form) => {
    const { intent = '', setting = '', enabled = '' } = form
    if (intent === 'exec-controls') return (await updateOrgSettings(caller, execControls(form))).settings
    if (intent !== 'toggle') throw badRequest(`intent: unknown action "${intent}"`, 'intent')
    if (!(SWITCHES as readonly string[]).includes(setting))
      throw badRequest('setting: unknown setting', 'setting')
    if (enabled !== 'true' && enabled !== 'false') throw badRequest('enabled: true or false', 'enabled')
    return (await updateOrgSettings(caller, { [setting]: enabled === 'true' })).settings
  })
}

function execControls(form: Record<string, string>) {
  const list = (text: string | undefined, separator: RegExp) =>
    (text ?? '')
      .split(separator)
      .map((item) => item.trim())
      .filter(Boolean)
  const execLimits: Record<string, unknown> = {}
  for (const name of LIMITS) {
    const value = form[name]?.trim()
    // Any number goes to the schema as a number, so "-1" is refused for its size, not its type.
    if (value) execLimits[name] = Number.isFinite(Number(value)) ? Number(value) : value
  }
  return { execRuntimes: list(form.runtimes, /,/), execLimits, execDeny: list(form.deny, /\r?\n/) }
}
