/**
 * Bootstrap: makes an environment's working tree from its definition, in order: empty the folder,
 * fetch the source (a shallow single-branch git clone by default, or a copy of an allowlisted
 * local folder for org admins), detect the package manager, clone git skills into
 * `.skills/<repo>`, project the instructions and skills (project.ts), then run `setup`
 * (setup-shell.ts). Every phase and step is reported through `onProgress`; a failed step stops it.
 */
import { realpath } from 'node:fs/promises'
import { forbidden, badRequest } from '../../lib/errors.ts'
import type { EnvironmentDefinition } from '../definition/definition.ts'
import type { ExecLimits, ExecOptions } from '../exec/exec.ts'
import type { FileContext } from '../files/files-schema.ts'
import { type CloneBounds, cloneRepo, copyLocalSource } from './clone.ts'
import { type CloneRequest, repoFolder, repoUrl } from './git.ts'
import type { OrgDiskShare } from '../files/disk-watch.ts'
import { emptyFolder, fileInside, fillFromStaging } from '../exec/inside.ts'
import { measureUsage } from '../files/quota.ts'
import { isInside } from '../files/paths.ts'
import { project, type Projection, SKILLS_DIR } from './project.ts'
import { type CommandGate, runSetup, type StepRecord } from './setup-shell.ts'

export type BootstrapPhase = 'source' | 'skills' | 'setup' | 'snapshot' | 'restore' | 'done'

export type BootstrapRecord = {
  status: 'running' | 'ready' | 'failed'
  hash: string
  phase: BootstrapPhase
  startedAt: string
  finishedAt?: string
  /** Set when the tree came from a snapshot instead of running setup. */
  restoredFrom?: 'snapshot'
  packageManager?: string | null
  steps: StepRecord[]
  error?: string
}

export type BootstrapInput = {
  definition: EnvironmentDefinition
  files: FileContext & { owner: { uid: number; gid: number } }
  secrets: Record<string, string>
  redact: (text: string) => string
  isAdmin: boolean
  localRoot?: string
  approvedSkill: Projection['approvedSkill']
  execOptions?: ExecOptions
  /**
   * The gate every command passes (setup's steps too), and the limits commands and the clones run
   * under (its disk quota lowered by its organisation's total, org-disk.ts).
   */
  gate: CommandGate
  limits: ExecLimits
  /** Where the folder's size is shared with its organisation's other environments while it grows. */
  orgDisk?: OrgDiskShare
  record: BootstrapRecord
  onProgress: (record: BootstrapRecord) => Promise<void> | void
}

const LOCKFILES: [string, string][] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
  ['package-lock.json', 'npm'],
  ['package.json', 'npm'],
]

/** The package manager a tree uses, from its lockfile (`auto`), else the definition's choice. */
export async function detectPackageManager(root: string, declared: string): Promise<string | null> {
  if (declared !== 'auto') return declared
  for (const [file, manager] of LOCKFILES) if (await fileInside(root, file)) return manager
  return null
}

/** Builds the tree. @throws HttpError naming the failed phase or step (the record says the same). */
export async function bootstrap(input: BootstrapInput): Promise<void> {
  const { definition: def, files, record } = input
  const root = files.root
  const phase = async (next: BootstrapPhase) => {
    record.phase = next
    await input.onProgress(record)
  }
  await phase('source')
  await emptyFolder(root)
  // What the emptied folder held no longer counts: a known usage over the quota would refuse setup.
  await measureUsage(root)
  const source = def.source
  // Clones and copies are made where no command can see them, then moved in (inside.ts).
  if (source.type === 'git') {
    await cloneInto(input, '', {
      url: source.url,
      ref: source.ref,
      depth: source.depth,
      token: source.secret ? input.secrets[source.secret] : undefined,
      field: 'source.url',
    })
  } else if (source.type === 'local') {
    await copyLocal(source.path, input)
  }
  record.packageManager = await detectPackageManager(root, def.packageManager)

  await phase('skills')
  for (const [i, skill] of def.skills.entries()) {
    if (typeof skill === 'string' || skill.kind !== 'git') continue
    await cloneInto(input, `${SKILLS_DIR}/${repoFolder(skill.repo)}`, {
      url: repoUrl(skill.repo),
      ref: skill.ref,
      depth: 1,
      token: skill.secret ? input.secrets[skill.secret] : undefined,
      field: `skills.${i}.repo`,
    })
  }
  await project(files, {
    instructions: def.instructions,
    skills: def.skills,
    secrets: input.secrets,
    approvedSkill: input.approvedSkill,
  })

  await phase('setup')
  const run = await runSetup(def.setup, {
    env: {
      root,
      secrets: input.secrets,
      allowedHosts: def.policy.network.allow,
      limits: input.limits,
      ...(files.quotaNote ? { quotaNote: files.quotaNote } : {}),
      ...(input.orgDisk ? { orgDisk: input.orgDisk } : {}),
    },
    gate: input.gate,
    owner: files.owner,
    opts: input.execOptions,
    initialExports: record.packageManager ? { PACKAGE_MANAGER: record.packageManager } : {},
    onProgress: async (steps) => {
      record.steps = steps
      await input.onProgress(record)
    },
  })
  record.steps = run.steps
  if (!run.ok) {
    const failed = run.steps.find((s) => s.status === 'failed')!
    throw badRequest(
      `setup: step ${failed.index + 1} (${failed.command}) failed with exit ${failed.exitCode ?? 'none'}:\n${failed.tail ?? ''}`,
      'setup',
    )
  }
}

/**
 * Clones into `rel` ('' for the root) through a staging folder (inside.ts), within the room the
 * environment's quota leaves beside what its folder holds (clone.ts).
 */
function cloneInto(
  input: BootstrapInput,
  rel: string,
  req: Omit<CloneRequest, 'dir' | 'cwd' | 'localRoot' | 'isAdmin'>,
) {
  const place = { dir: '.', localRoot: input.localRoot, isAdmin: input.isAdmin }
  return fillInto(input, rel, (staging, bounds) =>
    cloneRepo({ ...req, ...place, cwd: staging }, input.redact, bounds),
  )
}

/** A `local` source: org admins only, from under ENVIRONMENT_LOCAL_ROOT, copied with a clone's bounds. */
async function copyLocal(path: string, input: BootstrapInput) {
  if (!input.isAdmin) throw forbidden('source: a local source is for organisation admins only')
  if (!input.localRoot) throw forbidden('source: local sources need ENVIRONMENT_LOCAL_ROOT on this server')
  const real = await realpath(path).catch(() => {
    throw badRequest(`source.path: ${path} does not exist`, 'source.path')
  })
  if (!isInside(await realpath(input.localRoot), real))
    throw forbidden(`source.path: ${path} is outside ENVIRONMENT_LOCAL_ROOT`)
  await fillInto(input, '', (staging, bounds) => copyLocalSource(real, staging, input.redact, bounds))
}

/**
 * Fills `rel` through a staging folder with the bounds a command has (clone.ts). A fill refused
 * for its size leaves nothing behind (the staging folder goes), and its organisation's share is
 * told the folder's size again, since it counted the staging folder while the fill grew.
 */
async function fillInto(
  input: BootstrapInput,
  rel: string,
  fill: (staging: string, bounds: CloneBounds) => Promise<void>,
) {
  const root = input.files.root
  const bounds = {
    root,
    limits: input.limits,
    heldBytes: await measureUsage(root),
    quotaNote: input.files.quotaNote,
    orgDisk: input.orgDisk,
    signal: input.execOptions?.signal,
  }
  try {
    await fillFromStaging(root, rel, (staging) => fill(staging, bounds))
  } finally {
    await input.orgDisk?.(await measureUsage(root)).catch(() => undefined)
  }
}
