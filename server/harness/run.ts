/**
 * One harness run, whatever the adapter and wherever it runs: open the run's endpoint (a token that
 * dies with the run), place it (launch-local.ts: this server's sandbox; launch-docker.ts: a docker
 * environment's container; launch-machine.ts: a connected machine), project the environment and the prompt into the run's throw-away folder,
 * start the CLI, read its event stream into transcript steps as they come, and clean up whatever
 * happened. Every tool call the harness makes is decided by the environment's policy and audited
 * (policy-hook.ts).
 */
import { placeLost } from '../accounts/place-kept.ts'
import type { Caller } from '../auth/caller.ts'
import type { OpenEnvironment } from '../environments/service.ts'
import { hiddenHeaders, type McpEndpoint } from '../integrations/mcp-client.ts'
import { asRunningCommand } from '../environments/exec/running.ts'
import { HttpError } from '../lib/errors.ts'
import { makeRedactor, withJsonForm } from '../lib/redact.ts'
import { findRun } from '../runs/store.ts'
import type { HarnessAdapter, TranscriptPart } from './adapter.ts'
import { type CallRecord, type ModelGrant, openSession } from './endpoint.ts'
import { launchDocker } from './launch-docker.ts'
import { launchLocal } from './launch-local.ts'
import { launchMachine } from './launch-machine.ts'
import type { Launcher, Placed } from './launcher.ts'
import { createPolicyHook, type Approver } from './policy-hook.ts'
import { lineReader } from './lines.ts'

export type HarnessRunRequest = {
  adapter: HarnessAdapter
  caller: Caller
  opened: OpenEnvironment
  prompt: string
  /** `run`: unattended (the policy's `ask` means no); `chat`: a person may approve. */
  mode: 'run' | 'chat'
  /** The run or thread (for the audit), and what stops its commands on a machine (a chat turn's key). */
  origin: { runId?: string; threadId?: string; stopKey?: string }
  grant: ModelGrant
  modelId: string
  skills: { name: string; content: string }[]
  mcp: McpEndpoint[]
  signal: AbortSignal
  timeoutSeconds: number
  approve?: Approver
  /** The transcript so far, each time it changes. */
  onProgress?: (parts: TranscriptPart[]) => void
}

export type HarnessOutcome = {
  parts: TranscriptPart[]
  usage: { inputTokens: number; outputTokens: number; costUsd: number | null }
  calls: CallRecord[]
  /** Why the run failed, or null when the harness finished its task. */
  failure: string | null
}

/** Where each kind of environment runs a harness. */
const LAUNCHERS: Record<OpenEnvironment['target']['kind'], Launcher> = {
  local: launchLocal,
  docker: launchDocker,
  machine: launchMachine,
}

/**
 * For a job run, whether its row still says it runs: a cancel, or a lapsed lease, is recorded in
 * the row first and reaches the run's process later. A chat's harness has no row (its stop is this
 * process's own).
 */
const runStillOn = (runId: string | undefined) =>
  runId ? async () => (await findRun(runId))?.status === 'running' : undefined

/** Seconds a hook may wait for a person's answer in chat. */
const APPROVAL_SECONDS = 600

export async function runHarness(req: HarnessRunRequest): Promise<HarnessOutcome> {
  const { adapter, opened } = req
  // The environment's secrets, and the MCP servers' header values a server may echo (decision 0426),
  // in one redactor: longest first across both. A secret is hidden as it reads in JSON too: the
  // endpoint redacts a model call's body, and the transcript a tool result's JSON, as text.
  const redact = makeRedactor([
    ...Object.values(opened.secrets).flatMap(withJsonForm),
    ...req.mcp.flatMap((endpoint) => hiddenHeaders(endpoint.headers)),
  ])
  // The transcript is shown to people and kept: secret values never reach it (nor the model). The
  // parser redacts each step once as it keeps it, within the transcript's bounds (transcript.ts).
  const parser = adapter.parser(redact)
  const steps = (): TranscriptPart[] => parser.parts()
  const stop = new AbortController()
  let refusal: string | null = null
  const onAbort = () => stop.abort()
  req.signal.addEventListener('abort', onAbort, { once: true })
  if (req.signal.aborted) stop.abort()
  const session = openSession({
    grant: req.grant,
    decide: createPolicyHook(req),
    mcp: new Map(req.mcp.map((m) => [m.name, m])),
    redact,
    awaitCheckIn: adapter.checksIn === true,
    // Only a CLI on a connected machine reaches the endpoint over HTTP.
    door: opened.target.kind === 'machine' ? 'http' : 'socket',
    stillOn: runStillOn(req.origin.runId),
    // The person who started the run, as its chat turn's or job run's tools ask (decision 0476).
    placeLost: async () => (await placeLost(req.caller, 'this harness run'))?.message ?? null,
    onRefusal: (reason) => {
      refusal ??= reason
      stop.abort()
    },
  })
  const outcome = (failure: string | null): HarnessOutcome => ({
    parts: steps(),
    usage: session.usage(),
    calls: session.calls,
    failure: failure && redact(failure),
  })
  const launch = LAUNCHERS[opened.target.kind]
  let placed: Placed | undefined
  try {
    if (opened.elsewhere) {
      return outcome(
        `${adapter.label} runs only on the instance that holds the environment's folder; ` +
          `${opened.row.name} is on another instance`,
      )
    }
    try {
      placed = await launch({
        adapter,
        opened,
        token: session.token,
        timeoutSeconds: req.timeoutSeconds,
        signal: stop.signal,
        stopKey: req.origin.stopKey ?? req.origin.runId ?? session.token,
      })
    } catch (err) {
      return outcome((err as Error).message) // not installed, no socket: nothing ran
    }
    const base = placed.baseUrl
    const projection = adapter.project({
      root: placed.root,
      runDir: placed.runDir,
      prompt: req.prompt,
      modelId: req.modelId,
      skills: req.skills,
      mcpServers: req.mcp.map((m) => ({ name: m.name, url: `${base}/mcp/${m.name}` })),
      endpoint: {
        baseUrl: base,
        token: session.token,
        hookUrl: `${base}/hook`,
        hookTimeoutSeconds: req.mode === 'chat' ? APPROVAL_SECONDS : 30,
      },
    })
    // The CLI's stdout, a line at a time; a line too long to keep is counted left out (lines.ts).
    const lines = lineReader({
      line: (text) => parser.push(text),
      overLong: () => {
        parser.leaveOut()
        return true
      },
    })
    const running = placed
    // The whole session is one of the person's and the organisation's running commands (running.ts).
    const result = await asRunningCommand({ person: req.caller.userId, org: opened.row.orgId }, () =>
      running.run(projection, (stream, chunk) => {
        if (stream === 'stdout' && lines.push(chunk)) req.onProgress?.(steps())
      }),
    ).catch((err: unknown) => {
      if (err instanceof HttpError) return err
      throw err
    })
    if (result instanceof HttpError) return outcome(result.message)
    if (lines.end()) req.onProgress?.(steps())
    if (req.signal.aborted) return outcome('Stopped before the harness finished')
    if (refusal) return outcome(refusal)
    if (result.timedOut)
      return outcome(`${adapter.label} ran longer than ${req.timeoutSeconds} s and was stopped`)
    const exited = `${adapter.label} exited with ${result.exitCode ?? result.signal}: ${result.stderr.slice(-500)}`
    const { error } = parser.summary()
    if (error) return outcome(result.exitCode === 0 ? error : `${error} (${exited})`)
    if (result.exitCode !== 0) return outcome(exited)
    return outcome(null)
  } finally {
    req.signal.removeEventListener('abort', onAbort)
    session.close()
    await placed?.cleanup().catch(() => {})
  }
}
