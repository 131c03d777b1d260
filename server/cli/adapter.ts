/**
 * CLI adapters, agent-native's second seam: a named command-line tool the agent may call with
 * arguments. The agent gets one `cli` tool whose description lists what `CliRegistry.describe()`
 * reports available.
 */
export type CliResult = { stdout: string; stderr: string; exitCode: number | null }

export interface CliAdapter {
  readonly name: string
  readonly description: string
  /** Installed here and runnable under this process's isolation policy. */
  isAvailable(): Promise<boolean>
  /** Runs the tool with `args` (never through a shell); `input` goes to stdin. */
  execute(args: string[], input?: string): Promise<CliResult>
}
