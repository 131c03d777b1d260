/**
 * `runCode`: the one function behind the agent's `run-code` tool. It owns everything around the
 * adapter: input validation, the bridge's lifetime, the module wrapper, the env scrub and the
 * result shape. Adapters only run the prepared module.
 */
import { z } from 'zod'
import type { SandboxAdapter } from './adapter.ts'
import { startBridge, type BridgeActions, type BridgeOptions } from './bridge.ts'
import { getSandboxAdapter } from './index.ts'
import { wrapModule } from './module.ts'

export const RUN_CODE_DEFAULT_TIMEOUT_MS = 30_000
export const RUN_CODE_MAX_TIMEOUT_MS = 120_000

export const RunCodeInput = z.object({
  code: z
    .string()
    .min(1)
    .max(200_000)
    .describe(
      'JavaScript run as an ES module on Node (top-level await works; console.log goes to stdout). ' +
        'Globals: appAction(name, input) calls an allowed app action as you; providerFetch(url, init) ' +
        'fetches from an allowlisted host. No network, no files outside a temp dir, no child processes.',
    ),
  timeoutMs: z
    .number()
    .int()
    .min(100)
    .max(RUN_CODE_MAX_TIMEOUT_MS)
    .optional()
    .describe(`Time limit in ms (default ${RUN_CODE_DEFAULT_TIMEOUT_MS}, max ${RUN_CODE_MAX_TIMEOUT_MS}).`),
})
export type RunCodeInput = z.infer<typeof RunCodeInput>

export type RunCodeResult = {
  stdout: string
  stderr: string
  exitCode: number | null
  timedOut: boolean
  durationMs: number
}

export type RunCodeOptions = {
  /** Allowlisted actions, already bound to the caller (built by the agent domain). */
  actions: BridgeActions
  adapter?: SandboxAdapter
  /** Hosts providerFetch may reach; from SANDBOX_FETCH_ALLOW in the app. */
  fetchAllow?: string[]
  fetchOptions?: BridgeOptions['fetchOptions']
}

/** The only variables agent code sees. Fixed values: nothing is copied from the server's env. */
export function scrubbedEnv(): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/tmp', TMPDIR: '/tmp', LANG: 'C.UTF-8' }
}

export async function runCode(input: RunCodeInput, options: RunCodeOptions): Promise<RunCodeResult> {
  const { code, timeoutMs = RUN_CODE_DEFAULT_TIMEOUT_MS } = RunCodeInput.parse(input)
  const adapter = options.adapter ?? getSandboxAdapter()
  const bridge = await startBridge({
    actions: options.actions,
    fetchAllow: options.fetchAllow,
    fetchOptions: options.fetchOptions,
  })
  const started = performance.now()
  try {
    const result = await adapter.run({
      moduleSource: wrapModule(code, { token: bridge.token, socketPath: bridge.socketPath }),
      env: scrubbedEnv(),
      timeoutMs,
      bridgePort: bridge.port,
      bridgeSocketPath: bridge.socketPath,
    })
    return { ...result, durationMs: Math.round(performance.now() - started) }
  } finally {
    await bridge.close()
  }
}
