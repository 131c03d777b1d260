/**
 * Runs a build's clone of a git source or skill (git.ts says where it may connect and with what
 * configuration) under the bounds a command in the environment has (decision 0509). The clone
 * runs on the host, outside bubblewrap (it needs the network and writes a staging folder no
 * command sees), so those bounds are applied to it directly (exec/host-run.ts): the environment's
 * box, RLIMIT_FSIZE at its disk quota, a watch of the clone's folder against what the quota (and
 * the organisation's share) leaves, the environment's command timeout and the build's signal. It
 * is measured once more when it ends, and one over what it was left fails the build with the 507
 * a command gets over its quota. Unbounded, a repository of 160 KB (one letter repeated) checked
 * out as 96 MiB in a 4 MiB environment, and a git server that never answered held the build and
 * its git processes forever.
 */
import { chmod, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { badRequest, HttpError } from '../../lib/errors.ts'
import { formatBytes } from '../../lib/text.ts'
import { MiB } from '../exec/environment-limits.ts'
import type { ExecLimits } from '../exec/exec-schema.ts'
import { type HostRun, runOnHost } from '../exec/host-run.ts'
import type { OrgDiskShare } from '../files/disk-watch.ts'
import { overQuota, treeBytes } from '../files/quota.ts'
import { checkGitUrl, cloneArgs, type CloneRequest, gitConfig, type GitPin } from './git.ts'

/** What a clone may use: the environment's limits, and the room its folder leaves. */
export type CloneBounds = {
  /** The environment's folder: the clone runs in its box. */
  root: string
  /** The environment's limits, its disk quota lowered by its organisation's total as it was opened. */
  limits: ExecLimits
  /** Bytes the environment's folder holds already: the clone gets the rest of the quota. */
  heldBytes: number
  /** Why the quota is lower than the environment's own (org-disk.ts), when it is. */
  quotaNote?: string
  /** Where the folder's size is shared with its organisation's other environments. */
  orgDisk?: OrgDiskShare
  /** Aborting stops the clone and its git processes (a cancelled build). */
  signal?: AbortSignal
}

/**
 * Clones `req.url` into `req.dir` within `bounds`.
 * @throws HttpError 400/403 for the URL or git's (redacted) failure, 507 over the disk quota or the
 *   per-file limit, 400 past the timeout, 409 when the build was cancelled.
 */
export async function cloneRepo(
  req: CloneRequest,
  redact: (text: string) => string,
  bounds: CloneBounds,
): Promise<void> {
  const pin = await checkGitUrl(req.url, req.localRoot, req.field, req.isAdmin)
  await runClone(req, pin, redact, bounds)
}

/** Runs the clone, connecting only where `pin` says (the caller checked it). */
export async function runClone(
  req: CloneRequest,
  pin: GitPin | undefined,
  redact: (text: string) => string,
  bounds: CloneBounds,
): Promise<void> {
  await runFill(
    {
      argv: cloneArgs(req),
      cwd: req.cwd,
      env: await gitEnv(req, pin),
      folder: join(req.cwd, req.dir),
      field: req.field,
      what: `${req.field}: the clone of ${redact(req.url)}`,
      remedy: 'Clone less (a smaller repository, depth: 1) or give the environment a larger quota.',
    },
    bounds,
    redact,
  )
}

/**
 * Copies an admin's `local` source (a folder under ENVIRONMENT_LOCAL_ROOT, checked by the caller)
 * into `staging` under the same bounds: the operator's folder may be far larger than the quota.
 */
export async function copyLocalSource(
  from: string,
  staging: string,
  redact: (text: string) => string,
  bounds: CloneBounds,
): Promise<void> {
  await runFill(
    {
      argv: ['cp', '-a', '--no-preserve=ownership', `${from}/.`, staging],
      cwd: staging,
      env: { PATH: '/usr/bin:/bin' },
      folder: staging,
      field: 'source.path',
      what: `source.path: the copy of ${from}`,
      remedy: 'Copy a smaller folder or give the environment a larger quota.',
    },
    bounds,
    redact,
  )
}

/** One program that fills a folder for a build, and how a refusal of it names it. */
type Fill = {
  argv: string[]
  cwd: string
  env: Record<string, string>
  /** The folder it fills: watched while it runs, measured when it ends. */
  folder: string
  field: string
  /** e.g. "source.url: the clone of https://…". */
  what: string
  /** What to do when it is too large. */
  remedy: string
}

/** Runs `fill` within `bounds`. @throws HttpError as {@link cloneRepo} says. */
async function runFill(fill: Fill, bounds: CloneBounds, redact: (text: string) => string): Promise<void> {
  const quota = bounds.limits.diskMb * MiB
  const room = quota - bounds.heldBytes
  if (room <= 0) throw overQuota(bounds.heldBytes, quota, bounds.quotaNote)
  const run = await runOnHost(fill.argv, fill.cwd, fill.env, {
    root: bounds.root,
    limits: bounds.limits,
    watch: {
      folder: fill.folder,
      limitBytes: room,
      orgDisk: bounds.orgDisk && besideHeld(bounds.orgDisk, bounds.heldBytes),
    },
    signal: bounds.signal,
  })
  const refusal = fillRefusal(run, (await treeBytes(fill.folder)) ?? 0, fill, bounds, redact)
  if (refusal) throw refusal
}

/**
 * The organisation's share for the clone's folder, which sits beside what the environment's own
 * holds: the share is told both together, and answers the room left to the clone.
 */
const besideHeld =
  (share: OrgDiskShare, heldBytes: number): OrgDiskShare =>
  async (usedBytes) => {
    const org = await share(heldBytes + usedBytes)
    return { ...org, roomBytes: org.roomBytes - heldBytes }
  }

/** Why a finished fill fails the build (the first that applies), or undefined when it does not. */
function fillRefusal(
  run: HostRun,
  sizeBytes: number,
  fill: Fill,
  bounds: CloneBounds,
  redact: (text: string) => string,
): HttpError | undefined {
  const { what, field } = fill
  const tooLarge = (message: string, note?: string) =>
    new HttpError(507, 'over_quota', `${message}. ${fill.remedy}` + (note ? ` ${note}` : ''), field)
  const quota = bounds.limits.diskMb * MiB
  const output = redact([run.stdout.text(redact).text, run.stderr.text(redact).text].join('\n').trim())
  if (run.cancelled)
    return new HttpError(409, 'build_stopped', `${what} was stopped: the build was cancelled`)
  const stop = run.stoppedForDisk
  if (stop) {
    const limit = bounds.heldBytes + stop.limitBytes
    return tooLarge(
      `${what} was stopped at ${formatBytes(bounds.heldBytes + stop.usedBytes)}, ${overQuotaText(limit)}`,
      stop.note ?? bounds.quotaNote,
    )
  }
  // git (or its index-pack), or cp, killed by RLIMIT_FSIZE: one file larger than the quota.
  if (run.signal === 'SIGXFSZ' || /died of signal 25\b/.test(output)) {
    return tooLarge(
      `${what} was stopped: it holds a file larger than ${formatBytes(quota)}, the largest a command ` +
        `in this environment may write (its disk quota, ${QUOTA_NAMES})`,
      bounds.quotaNote,
    )
  }
  if (run.timedOut) {
    return badRequest(
      `${what} took longer than ${run.timeoutSeconds} s, the environment's command timeout ` +
        '(limits.timeoutSeconds), and was stopped',
      field,
    )
  }
  if (bounds.heldBytes + sizeBytes > quota) {
    return tooLarge(
      `${what} takes ${formatBytes(sizeBytes)}, ${overQuotaText(quota)}` +
        (bounds.heldBytes > 0 ? ` with the ${formatBytes(bounds.heldBytes)} the folder already holds` : ''),
      bounds.quotaNote,
    )
  }
  if (run.exitCode !== 0) {
    return badRequest(`${what} failed: ${output.slice(-2000)}`, field)
  }
  return undefined
}

/** Where an environment's disk quota comes from. */
const QUOTA_NAMES = "limits.diskMb, at most the organisation's and this server's maximum"

const overQuotaText = (limit: number) =>
  `over the environment's disk quota of ${formatBytes(limit)} (${QUOTA_NAMES})`

/** The variables git runs with: its configuration (git.ts), and no prompt, system or global file but ours. */
async function gitEnv(req: CloneRequest, pin: GitPin | undefined): Promise<Record<string, string>> {
  const config = gitConfig(pin, req.token)
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: req.cwd,
    LANG: 'C.UTF-8',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: await globalConfig(),
    GIT_CONFIG_COUNT: String(config.length),
  }
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key
    env[`GIT_CONFIG_VALUE_${i}`] = value
  })
  return env
}

let configFile: Promise<string> | undefined
/**
 * git 2.39 honours `safe.directory` only from system or global files (not -c nor GIT_CONFIG_*):
 * a file:// repository owned by another uid needs it. One readable file per process holds it.
 */
function globalConfig(): Promise<string> {
  configFile ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockwork-git-'))
    await chmod(dir, 0o755)
    const file = join(dir, 'config')
    await writeFile(file, '[safe]\n\tdirectory = *\n', { mode: 0o644 })
    return file
  })()
  return configFile
}
