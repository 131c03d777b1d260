/**
 * One harness run, whatever the adapter: open the run's endpoint (a token, a Unix socket), project
 * the environment and the prompt into a throw-away folder inside the environment, start the CLI in
 * the environment's sandbox as the sandbox user under its limits (the same executor as
 * `run_command`, exec.ts), read its event stream into transcript steps as they come, and clean up:
 * the token dies, the socket and the projected folder go, whatever happened. Every tool call the
 * harness makes is decided by the environment's policy and audited (policy-hook.ts).
 */
import { randomBytes } from 'node:crypto'
import { chown, mkdir, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { Caller } from '../auth/caller.ts'
import { runCommand } from '../environments/exec/exec.ts'
import type { OpenEnvironment } from '../environments/service.ts'
import type { McpEndpoint } from '../integrations/mcp-client.ts'
import type { HarnessAdapter, TranscriptPart } from './adapter.ts'
import { type CallRecord, type ModelGrant, openSession } from './endpoint.ts'
import { createPolicyHook, type Approver } from './policy-hook.ts'
import { serveOnSocket } from './socket.ts'

export type HarnessRunRequest = {
  adapter: HarnessAdapter
  caller: Caller
  opened: OpenEnvironment
  prompt: string
  /** `run`: unattended (the policy's `ask` means no); `chat`: a person may approve. */
  mode: 'run' | 'chat'
  origin: { runId?: string; threadId?: string }
  grant: ModelGrant
  modelId: string
  skills: { name: string; content: string }[]
  mcp: McpEndpoint[]
  signal: AbortSignal
  timeoutSeconds: number
  approve?: Approver
  /** The transcript so far, each time it changes. */
  onProgress?: (parts: TranscriptPart[]) => void
  /** Tests: called with the CLI's process arguments once it is about to start. */
  onLaunch?: (line: string) => void
}

export type HarnessOutcome = {
  parts: TranscriptPart[]
  usage: { inputTokens: number; outputTokens: number; costUsd: number | null }
  calls: CallRecord[]
  /** Why the run failed, or null when the harness finished its task. */
  failure: string | null
}

/** Seconds a hook may wait for a person's answer in chat. */
const APPROVAL_SECONDS = 600

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`

export async function runHarness(req: HarnessRunRequest): Promise<HarnessOutcome> {
  const { adapter, opened } = req
  const cli = adapter.locate()
  if (!cli) {
    return failed(
      `${adapter.label} is not installed on this server: run \`npm run harness:install ${adapter.id}\`` +
        ` or set ${adapter.install.pathVariable}`,
    )
  }
  const redact = opened.files.redact ?? ((text: string) => text)
  // The transcript is shown to people and kept: secret values never reach it (nor the model).
  const steps = (): TranscriptPart[] => JSON.parse(redact(JSON.stringify(parser.parts()))) as TranscriptPart[]
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
    onRefusal: (reason) => {
      refusal ??= reason
      stop.abort()
    },
  })
  const parser = adapter.parser()
  const socket = await serveOnSocket()
  const runDir = join(opened.root, `.harness-${randomBytes(6).toString('hex')}`)
  try {
    // A port of the sandbox's own loopback: nothing else listens in its network namespace.
    const port = 20_000 + (randomBytes(2).readUInt16BE() % 40_000)
    const base = `http://127.0.0.1:${port}/${session.token}`
    const projection = adapter.project({
      root: opened.root,
      runDir,
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
    await writeProjection(opened, runDir, projection.files)
    const line = [
      `socat TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${quote(socket.path)} 2>/dev/null &`,
      // The CLI's first call must find the relay listening.
      `for i in $(seq 200); do (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.05; done`,
      `exec ${[cli, ...projection.args].map(quote).join(' ')}`,
    ].join('\n')
    req.onLaunch?.(line)
    let pending = ''
    const result = await runCommand(
      { root: opened.root, secrets: opened.secrets, limits: opened.limits },
      line,
      {
        timeoutSeconds: req.timeoutSeconds,
        program: {
          readOnly: [dirname(cli), socket.dir],
          env: projection.env,
          signal: stop.signal,
          onChunk: (stream, chunk) => {
            if (stream !== 'stdout') return
            pending += chunk.toString('utf8')
            const lines = pending.split('\n')
            pending = lines.pop() ?? ''
            if (lines.map((l) => parser.push(l)).some(Boolean)) req.onProgress?.(steps())
          },
        },
      },
    )
    if (pending && parser.push(pending)) req.onProgress?.(steps())
    const summary = parser.summary()
    const failure = req.signal.aborted
      ? 'Stopped before the harness finished'
      : (refusal ??
        (result.timedOut
          ? `${adapter.label} ran longer than ${req.timeoutSeconds} s and was stopped`
          : (summary.error ??
            (result.exitCode === 0
              ? null
              : `${adapter.label} exited with ${result.exitCode ?? result.signal}: ${result.stderr.slice(-500)}`))))
    return {
      parts: steps(),
      usage: session.usage(),
      calls: session.calls,
      failure: failure && redact(failure),
    }
  } finally {
    req.signal.removeEventListener('abort', onAbort)
    session.close()
    await socket.close()
    await rm(runDir, { recursive: true, force: true })
  }

  function failed(failure: string): HarnessOutcome {
    return { parts: [], usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 }, calls: [], failure }
  }
}

/**
 * The projected files, owned by the sandbox user (the harness writes its home and temp files), all
 * inside the fresh run folder: nothing the environment's commands planted can redirect a write.
 */
async function writeProjection(
  opened: OpenEnvironment,
  runDir: string,
  files: { path: string; content: string }[],
) {
  const owner = opened.files.owner
  const own = async (path: string) => {
    if (owner) await chown(path, owner.uid, owner.gid)
  }
  for (const dir of [runDir, join(runDir, 'home'), join(runDir, 'tmp')]) {
    await mkdir(dir, { recursive: true })
    await own(dir)
  }
  for (const file of files) {
    const path = resolve(runDir, file.path)
    if (!path.startsWith(`${runDir}/`))
      throw new Error(`projection path outside the run folder: ${file.path}`)
    const parent = dirname(path)
    await mkdir(parent, { recursive: true })
    for (let dir = parent; dir.startsWith(`${runDir}/`); dir = dirname(dir)) await own(dir)
    await writeFile(path, file.content, { mode: 0o600 })
    await own(path)
  }
}
