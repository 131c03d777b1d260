/**
 * Which sandbox runs agent code: a registered adapter (an app's own choice) wins, then
 * `AGENT_NATIVE_SANDBOX` (`local` | `docker`, validated at start-up in env.ts), then `local`.
 */
import { env } from '../env.ts'
import type { SandboxAdapter, SandboxIsolation } from './adapter.ts'
import { DockerSandboxAdapter } from './docker.ts'
import { LocalChildProcessAdapter } from './local-child-process.ts'

let registered: SandboxAdapter | null = null
let fromEnv: SandboxAdapter | undefined

/** Installs an adapter for the whole process; `null` goes back to the env-selected one. */
export function registerSandboxAdapter(adapter: SandboxAdapter | null): void {
  registered = adapter
}

export function getSandboxAdapter(): SandboxAdapter {
  if (registered) return registered
  fromEnv ??=
    env().AGENT_NATIVE_SANDBOX === 'docker' ? new DockerSandboxAdapter() : new LocalChildProcessAdapter()
  return fromEnv
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
