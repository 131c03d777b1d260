/**
 * The sandbox seam: the one contract every way of running agent-written code implements.
 * Adapters only run a prepared module; the bridge, the env scrub and the output formatting
 * belong to `run-code.ts`, so swapping the backend never touches them.
 */

/** What the parent hands an adapter: a finished module, a scrubbed env, a deadline, the bridge. */
export interface SandboxRunRequest {
  /** The complete ES module to run (agent code already wrapped; see `module.ts`). */
  moduleSource: string
  /** The whole environment the code may see. Secrets never go in here. */
  env: Record<string, string>
  /** Wall-clock limit; past it the adapter kills the code and reports `timedOut`. */
  timeoutMs: number
  /** The bridge's 127.0.0.1 port for adapters that need TCP; 0 when the bridge listens on a socket only. */
  bridgePort: number
  /**
   * The bridge's Unix socket on the host. Adapters that isolate the network mount it into the
   * sandbox and tell the module where it is through {@link BRIDGE_SOCKET_ENV}.
   */
  bridgeSocketPath?: string
}

export interface SandboxRunResult {
  stdout: string
  stderr: string
  /** `null` when the code was killed (timeout, signal). */
  exitCode: number | null
  timedOut: boolean
}

export interface SandboxAdapter {
  readonly id: string
  run(request: SandboxRunRequest): Promise<SandboxRunResult>
  /** Optional: what this adapter isolates on this machine, for the status endpoint and start-up log. */
  describeIsolation?(): Promise<SandboxIsolation>
}

/** How much an adapter can promise here; `level` is a short word a status page can show. */
export type SandboxIsolation = {
  adapter: string
  /** `strong`: fs, network and processes contained. `reduced`: fs and processes only (network open). */
  level: 'strong' | 'reduced' | 'unknown'
  /** One sentence a person reads: what is contained and what is not. */
  summary: string
}

/**
 * Env variable naming where the bridge socket sits *inside* the sandbox, set by adapters that
 * mount it elsewhere than its host path. It carries a path, never a secret.
 */
export const BRIDGE_SOCKET_ENV = 'AGENT_NATIVE_BRIDGE_SOCKET'
/** Env variable with a `http://host:port` bridge URL, for adapters that reach the bridge over TCP. */
export const BRIDGE_URL_ENV = 'AGENT_NATIVE_BRIDGE_URL'
