/**
 * Which sandbox runs agent code: a registered adapter (an app's own choice) wins, then
 * `AGENT_NATIVE_SANDBOX` (`local` | `docker`, validated at start-up in env.ts), then `local`.
 */
import { env } from '../env.ts'
import type { SandboxAdapter, SandboxIsolation } from './adapter.ts'
import { DockerSandboxAdapter } from './docker.ts'
import { LocalChildProcessAdapter } from './local-child-process.ts'

let registered: SandboxAdapter | null = null
const builtIn: { local?: SandboxAdapter; docker?: SandboxAdapter } = {}

/** Installs an adapter for the whole process; `null` goes back to the env-selected one. */
export function registerSandboxAdapter(adapter: SandboxAdapter | null): void {
  registered = adapter
}

export function getSandboxAdapter(): SandboxAdapter {
  if (registered) return registered
  if (env().AGENT_NATIVE_SANDBOX === 'docker') return (builtIn.docker ??= new DockerSandboxAdapter())
  return (builtIn.local ??= new LocalChildProcessAdapter())
}

/** What the active adapter isolates here, for the status endpoint and the start-up log. */
export async function sandboxIsolation(): Promise<SandboxIsolation> {
  const adapter = getSandboxAdapter()
  if (adapter.describeIsolation) return adapter.describeIsolation()
  return {
    adapter: adapter.id,
    level: 'unknown',
    summary: 'A custom adapter; it does not describe its isolation.',
  }
}

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void }

/** Logs the isolation level once at start-up: a warning when it is less than strong. */
export async function reportSandboxIsolation(log: Log): Promise<SandboxIsolation> {
  const isolation = await sandboxIsolation()
  if (isolation.level === 'strong') log.info({ sandbox: isolation }, 'run-code sandbox ready')
  else log.warn({ sandbox: isolation }, `run-code sandbox is ${isolation.level}: ${isolation.summary}`)
  return isolation
}
