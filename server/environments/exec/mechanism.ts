/**
 * How commands are isolated on this server, decided once: Anthropic's sandbox-runtime (bubblewrap
 * + a filtering network proxy + seccomp) inside the command view (sandbox-view.ts), else the view
 * with no network at all, else nothing, and then exec is refused with the reason. Never
 * unsandboxed. Each is probed by running `true` the way a command runs. Either way the command
 * runs as an unprivileged uid (setpriv, when the server is root), in its environment's cgroup box
 * when this server can make one (else per-uid rlimits stand in, and the start-up log says so).
 */
import { execFile, spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { logger } from '../../lib/logger.ts'
import { cgroupSupport } from '../../sandbox/cgroup.ts'
import { dropPrivileges, prepareFolder, sandboxIdentity } from './identity.ts'
import { initSandboxRuntime, wrapCommand } from './sandbox-runtime.ts'
import { VIEW_TMP, viewArgs, type ViewPlan } from './sandbox-view.ts'

export type Mechanism =
  { kind: 'sandbox-runtime' } | { kind: 'bwrap'; why: string } | { kind: 'none'; why: string }

/** Each probe answers null when the mechanism works here, else why it does not. */
export type Probes = {
  tools: () => Promise<string | null>
  sandboxRuntime: () => Promise<string | null>
  bubblewrap: () => Promise<string | null>
}

const works = (cmd: string, args: string[]) =>
  spawnSync(cmd, args, { stdio: 'ignore', timeout: 10_000 }).status === 0

const realProbes: Probes = {
  tools: async () => {
    if (!works('prlimit', ['--version'])) return 'prlimit (util-linux) is not installed'
    if (sandboxIdentity().drop && !works('setpriv', ['--version']))
      return 'setpriv (util-linux) is not installed'
    return null
  },
  sandboxRuntime: async () => {
    try {
      await initSandboxRuntime()
    } catch (err) {
      return (err as Error).message
    }
    const why = await probeView(async (root) => {
      const wrapped = await wrapCommand({ id: 'probe', command: 'true', root, allowedHosts: [] })
      return { line: wrapped.line, view: wrapped.view, release: wrapped.release }
    })
    return why && withCwdHint(why, process.cwd())
  },
  bubblewrap: async () =>
    probeView(async () => ({ line: 'true', view: {}, release: () => {} })).then((why) =>
      why ? `bubblewrap (bwrap) is missing or cannot run the command view: ${why}` : null,
    ),
}

/**
 * The runtime's failure, with the likely cause when the server runs from inside /tmp: the runtime
 * protects files of the server's own folder (its `.git/hooks` and the like) inside each command's
 * view, whose /tmp is private, so bubblewrap cannot find them there.
 */
export function withCwdHint(why: string, cwd: string): string {
  const inside = relative(VIEW_TMP, cwd)
  if (inside.startsWith('..')) return why
  return (
    `${why} (the server runs from ${cwd}, inside ${VIEW_TMP}, which each command sees as a private ` +
    `folder of its own: run it from a folder outside ${VIEW_TMP})`
  )
}

/** Runs a line inside the command view as a command would, in a throwaway folder. */
async function probeView(
  wrap: (root: string) => Promise<{ line: string; view: Partial<ViewPlan>; release: () => void }>,
): Promise<string | null> {
  const base = await mkdtemp(join(tmpdir(), 'clockwork-probe-'))
  const root = join(base, 'env')
  try {
    await prepareFolder(root)
    const { line, view, release } = await wrap(root)
    const argv = [
      ...dropPrivileges(),
      'bwrap',
      ...viewArgs({ root, tmpBytes: 1024 * 1024, ...view }),
      '--',
      '/bin/bash',
      '-c',
      line,
    ]
    return await new Promise<string | null>((resolve) => {
      const env = { PATH: '/usr/local/bin:/usr/bin:/bin' }
      execFile(argv[0]!, argv.slice(1), { cwd: root, env, timeout: 20_000 }, (err, _out, stderr) => {
        release()
        resolve(err ? stderr.trim().slice(-300) || err.message : null)
      })
    })
  } catch (err) {
    return (err as Error).message
  } finally {
    await rm(base, { recursive: true, force: true })
  }
}

/** Decides the mechanism with the given probes (tests inject failing ones). */
export async function detectMechanism(probes: Probes = realProbes): Promise<Mechanism> {
  const tools = await probes.tools()
  if (tools) return { kind: 'none', why: tools }
  const runtime = await probes.sandboxRuntime()
  if (!runtime) return { kind: 'sandbox-runtime' }
  const bwrap = await probes.bubblewrap()
  if (!bwrap)
    return { kind: 'bwrap', why: `sandbox-runtime cannot start (${runtime}); commands have no network` }
  return { kind: 'none', why: `${runtime}; ${bwrap}` }
}

let detected: Promise<Mechanism> | undefined
/** The mechanism for this process, detected on first use. */
export function currentMechanism(): Promise<Mechanism> {
  detected ??= detectMechanism().then(async (mechanism) => {
    const boxes = await cgroupSupport()
    if (mechanism.kind !== 'none' && typeof boxes === 'string') {
      logger.warn(
        { why: boxes },
        'environments: no cgroup boxes, so processes and memory are limited per uid and per process (one tenant can exhaust the process count of all)',
      )
    }
    return mechanism
  })
  return detected
}
