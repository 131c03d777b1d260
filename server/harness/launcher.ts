/**
 * Where a harness runs: this server's sandbox (launch-local.ts), a container of a `docker`
 * environment (launch-docker.ts) or a connected machine (launch-machine.ts). A launcher knows the URL the CLI reaches the run's endpoint at, where the
 * run's throw-away folder is, how to write the projection and start the CLI, and how to clean up.
 */
import type { ExecResult } from '../environments/exec/exec-schema.ts'
import type { OpenEnvironment } from '../environments/service.ts'
import type { HarnessAdapter, Projection } from './adapter.ts'

export type Placed = {
  /** The run's endpoint as the CLI reaches it (the model API lives under `/v1`). */
  baseUrl: string
  /** The environment's folder as the CLI sees it (absolute): its working directory. */
  root: string
  /** The run's throw-away folder inside it, as the CLI sees it (absolute). */
  runDir: string
  /** Writes the projection, runs the CLI to its end, handing its output over as it comes. */
  run(
    projection: Projection,
    onChunk: (stream: 'stdout' | 'stderr', chunk: Buffer) => void,
  ): Promise<ExecResult>
  /** Removes the run's folder and whatever served the endpoint; called whatever happened. */
  cleanup(): Promise<void>
}

export type Launcher = (ctx: {
  adapter: HarnessAdapter
  opened: OpenEnvironment
  token: string
  timeoutSeconds: number
  /** Aborted to stop the CLI (cancel, timeout, a refused budget). */
  signal: AbortSignal
  /** The key a machine's commands are stopped by (the run, or the chat turn). */
  stopKey: string
}) => Promise<Placed>

/** The CLI's path on this server. @throws naming the command that installs it, when it is not installed. */
export function installedCli(adapter: HarnessAdapter): string {
  const cli = adapter.locate()
  if (cli) return cli
  throw new Error(
    `${adapter.label} is not installed on this server: run \`npm run harness:install ${adapter.id}\`` +
      ` or set ${adapter.install.pathVariable}`,
  )
}

/** One shell word, whatever it holds. */
export const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`
