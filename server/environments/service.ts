/**
 * Environments as use cases: find (or create on first use) the environment a caller names, with
 * the same visibility and edit rules as jobs (a personal one is its creator's alone; a shared one
 * every member sees, and its creator and the org's admins use); run commands and change files in
 * it under its policy, injecting its secrets; audit every command and file write.
 *
 * Its definition is the workspace file `environments/<name>.md` (personal first, then shared);
 * `scratch` needs none, nor does a job run's own scratch folder. Its `provider` decides where the
 * tools act (providers.ts): this server's folder, or a connected machine. A local folder lives on
 * the instance that created it (recorded); a call arriving elsewhere is forwarded (remote.ts).
 */
import { hostname } from 'node:os'
import { join } from 'node:path'
import type { Caller } from '../access/caller.ts'
import { canEditJob, canViewJob } from '../access/rules.ts'
import { readOrgSettings } from '../accounts/org-settings.ts'
import { secretOwnerFor } from '../keys/secret-rules.ts'
import { resolveSecretValues } from '../keys/secrets-service.ts'
import { badRequest, conflict, forbidden, HttpError, notFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { readResource } from '../resources/service.ts'
import type { BootstrapWatcher } from './bootstrap/bootstrap-watch.ts'
import {
  type CommandAudit,
  type CommandMode,
  type CommandOutcome,
  runPolicedCommand,
} from './exec/commands.ts'
import { type EnvironmentDefinition, EnvironmentName, parseEnvironmentFile } from './definition/definition.ts'
import type { ExecEnvironment, ExecLimits } from './exec/exec-schema.ts'
import type { FileContext } from './files/files-schema.ts'
import { prepareFolder } from './exec/identity.ts'
import { environmentsDir, here } from './instance.ts'
import { assertExecAllowed, effectiveLimits, effectivePolicy, type OrgExec } from './definition/org-policy.ts'
import type { MergedPolicy } from './policy/policy.ts'
import {
  folderHere,
  providerFor,
  resolveTarget,
  stopKeyFor,
  stoppable,
  type ProviderTarget,
} from './providers/providers.ts'
import { makeRedactor } from '../lib/redact.ts'
import { orgDiskNote, orgDiskRoom, shareOrgDisk, withinOrgDisk } from './org-disk.ts'
import { asRunningCommand } from './exec/running.ts'
import { whileInUse } from './exec/in-use.ts'
import { prepareTree } from './bootstrap/tree.ts'
import {
  type EnvironmentRow,
  findEnvironment,
  findEnvironmentById,
  insertAudit,
  insertEnvironment,
  recordPlace,
  touchEnvironment,
} from './store.ts'

export const SCRATCH = 'scratch'

/** Where a call comes from, for the audit (a chat thread or a job run) and for stops (its turn). */
export type Origin = { threadId?: string; runId?: string; turnId?: string }

export type OpenEnvironment = {
  row: EnvironmentRow
  definition: EnvironmentDefinition
  root: string
  secrets: Record<string, string>
  files: FileContext
  /** Where the tools act: this server's folder or a connected machine. */
  target: ProviderTarget
  /** The org's policy layer over the definition's (members cannot loosen it). */
  policy: MergedPolicy
  limits: ExecLimits
  org: OrgExec
  /** Set when the folder lives on another instance: calls are forwarded there (remote.ts). */
  elsewhere?: { instanceId: string; instanceUrl: string | null }
}

/** A definition as it was found: its scope, who created it and who saved it last (user ids). */
type FoundDefinition = {
  scope: 'personal' | 'shared'
  definition: EnvironmentDefinition
  creator?: string | null
  writer?: string | null
}

async function readDefinition(caller: Caller, name: string): Promise<FoundDefinition> {
  for (const scope of ['personal', 'shared'] as const) {
    try {
      const file = await readResource(caller, scope, `environments/${name}.md`)
      const definition = parseEnvironmentFile(file.content)
      return { scope, definition, creator: file.createdBy, writer: file.updatedBy }
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 404) throw err
    }
  }
  if (name === SCRATCH) return { scope: 'personal' as const, definition: parseEnvironmentFile('') }
  throw notFound(
    `No environment named ${name}: create environments/${name}.md in your workspace (or use ${SCRATCH})`,
  )
}

/**
 * Who may see and use it: a personal environment is its record's creator's; a shared one follows
 * its definition's creator (the record's first user is nobody in particular: opening a shared
 * environment first must not make someone its creator). No recorded creator: the admins alone.
 */
const facts = (row: EnvironmentRow, found: Pick<FoundDefinition, 'creator'>) => ({
  orgId: row.orgId,
  scope: row.scope,
  createdBy: row.scope === 'personal' ? row.createdBy : (found.creator ?? ''),
})

/** The record name of a job run's own scratch folder (not a slug, so no definition can claim it). */
export const runScratchName = (runId: string) => `${SCRATCH}:${runId}`

/** How an environment is opened besides its name. */
export type OpenOptions = {
  /** A job run's id: with no name, its own scratch folder. */
  runId?: string
  /**
   * False: do not build or project the tree (reading its policy or scripts, a page showing its
   * files); such an open never waits for a build. Default: build it when the caller may use it.
   */
  prepare?: boolean
  /** Gets each state of a build this open runs or waits for (live progress). */
  onBootstrap?: BootstrapWatcher
  /** The chat thread or job run the open is for: setup's commands are audited with it. */
  origin?: Origin
}

/**
 * The environment `name` for `caller`, created on first use. Without a name: the job run's own
 * scratch folder when `runId` is given (removed when the run ends), else the personal `scratch`.
 */
export async function openEnvironment(
  caller: Caller,
  name: unknown,
  need: 'view' | 'use',
  defaults: OpenOptions = {},
): Promise<OpenEnvironment> {
  const runScratch = (name === undefined || name === null) && defaults.runId !== undefined
  const parsed = EnvironmentName.safeParse(name ?? SCRATCH)
  if (!parsed.success) throw badRequest(`environment: ${parsed.error.issues[0]!.message}`, 'environment')
  const found: FoundDefinition = runScratch
    ? { scope: 'personal', definition: parseEnvironmentFile('') }
    : await readDefinition(caller, parsed.data)
  const recordName = runScratch ? runScratchName(defaults.runId!) : parsed.data
  const key = { orgId: caller.orgId, scope: found.scope, name: recordName, createdBy: caller.userId }
  const owner = found.scope === 'personal' ? caller.userId : 'shared'
  const dir = runScratch
    ? join(caller.orgId, owner, '.runs', defaults.runId!.replace(/[^A-Za-z0-9_-]/g, '_'))
    : join(caller.orgId, owner, parsed.data)
  const row =
    (await findEnvironment(key)) ?? (await insertEnvironment({ id: newId('env'), ...key, ...here(), dir }))
  if (!row) throw conflict(`The environment ${recordName} could not be created`, 'environment')
  return open(caller, row, found, need, defaults)
}

async function open(
  caller: Caller,
  row: EnvironmentRow,
  found: FoundDefinition,
  need: 'view' | 'use',
  how: OpenOptions,
): Promise<OpenEnvironment> {
  const { definition } = found
  if (!canViewJob(caller, facts(row, found))) throw notFound(`No environment named ${row.name}`)
  const mayUse = canEditJob(caller, facts(row, found))
  if (need === 'use' && !mayUse) {
    throw forbidden(
      `Only its creator and the organisation's admins may work in the shared environment ${row.name}`,
    )
  }
  // Its files, search hits and setup output may hold what its secrets made: only for its users.
  if (!mayUse && definition.secrets.length > 0) {
    throw forbidden(
      `The shared environment ${row.name} holds secrets: only its creator and the organisation's admins see its files`,
    )
  }
  const machineOwner = row.scope === 'personal' ? caller.userId : found.creator
  const target = await resolveTarget(caller, { ...row, ...definition, machineOwner })
  const org = await readOrgSettings(row.orgId)
  const root = join(environmentsDir(), row.dir)
  // A folder on this deployment's disk also shares its organisation's total (decision 0491).
  const room = folderHere(target) ? await orgDiskRoom(row) : Infinity
  const { limits, byOrg } = withinOrgDisk(effectiveLimits(org, definition), room)
  const base = {
    row,
    definition,
    root,
    target,
    org,
    policy: effectivePolicy(org, definition),
    limits,
    secrets: {},
    files: { root },
  }
  if (!folderHere(target)) return base
  const { instanceId, instanceUrl } = here()
  // Records from before folders were placed by host and directory name the bare host name.
  const legacy = row.instanceId === hostname() && row.instanceId !== instanceId
  if (row.instanceId !== instanceId && !legacy) {
    return { ...base, elsewhere: { instanceId: row.instanceId, instanceUrl: row.instanceUrl } }
  }
  if (legacy || row.instanceUrl !== instanceUrl) await recordPlace(row.id, { instanceId, instanceUrl })
  // Its folder is made and filled as a command's work is, so a delete waits for it or refuses it
  // (decision 0471): a delete that emptied the folder meanwhile would fail, leaving it half gone.
  return workingIn(row, async () => {
    const owner = await prepareFolder(root)
    const values = await secretsOf(caller, row, found)
    const quotaBytes = base.limits.diskMb * 1024 * 1024
    const redact = makeRedactor(Object.values(values))
    const quotaNote = byOrg ? orgDiskNote(room) : undefined
    const files = { root, owner, quotaBytes, redact, ...(quotaNote ? { quotaNote } : {}) }
    // Build (or restore) the tree for this definition and project its instructions and skills;
    // setup's steps pass the same gate as every command.
    // A stop of the run or turn the open is for stops the build's clones and steps too.
    if (how.prepare !== false && mayUse) {
      await stoppable(stopKeyFor({ runId: how.runId, ...how.origin }), (signal) =>
        prepareTree(caller, row, definition, {
          files,
          secrets: values,
          execOptions: { signal },
          gate: {
            org,
            policy: base.policy,
            audit: commandAuditor(caller, row, how.origin),
            tenant: caller.userId,
          },
          limits: base.limits,
          orgDisk: (used) => shareOrgDisk(row, used),
          onProgress: how.onBootstrap,
        }),
      )
    }
    return { ...base, secrets: values, files }
  })
}

/**
 * Runs `work` (anything that makes, changes or reads its folder) counted as in use in `row`, so a
 * delete either waits for it or was done before it (decisions 0471, 0472): never does it act in a
 * folder being emptied. Once counted, `row` is read again: deleted since it was read, its folder
 * is gone or going.
 * @throws HttpError 409 while a delete holds it, 404 when it was deleted meanwhile; `work` not run
 */
export function workingIn<T>(row: EnvironmentRow, work: () => Promise<T>): Promise<T> {
  return whileInUse(row.id, async () => {
    if (!(await findEnvironmentById(row.id))) throw notFound(`No environment named ${row.name}`)
    return work()
  })
}

/**
 * The values of the definition's secrets (docs/decisions/0220): a personal environment gets its
 * owner's own, never the organisation's; a shared one the organisation's, while an admin stands
 * behind its definition. @throws HttpError 403 or 400 on `secrets`.
 */
async function secretsOf(caller: Caller, row: EnvironmentRow, found: FoundDefinition) {
  const names = found.definition.secrets
  if (names.length === 0) return {}
  const source = await secretOwnerFor(
    row.scope === 'personal'
      ? { scope: 'personal', userId: caller.userId }
      : {
          scope: 'shared',
          orgId: row.orgId,
          writer: found.writer,
          what: `the shared environment ${row.name}`,
        },
  )
  const { values, missing } = await resolveSecretValues([source], names)
  if (missing.length > 0) {
    const whose = row.scope === 'personal' ? 'your own secrets' : "the organisation's secrets"
    throw badRequest(
      `secrets: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not among ${whose}; add ` +
        `${missing.length > 1 ? 'them' : 'it'} under Settings → Secrets`,
      'secrets',
    )
  }
  return values
}

/** Runs `exec` with the environment's folder watched, answering what it answers. */
export type Watched = <R>(exec: () => Promise<R>) => Promise<R>

/**
 * Runs a command under the environment's (and the org's) policy and audits it. `watched` wraps
 * the run itself, so only a line the policy let through is watched (operations/activity.ts).
 */
export async function runInEnvironment(
  caller: Caller,
  opened: OpenEnvironment,
  input: { command: string; timeoutSeconds?: number; mode: CommandMode; approved?: boolean },
  origin: Origin = {},
  watched: Watched = (exec) => exec(),
): Promise<CommandOutcome> {
  const { row } = opened
  assertExecAllowed(opened.org)
  const provider = providerFor(opened.target, opened.files)
  const stopKey = stopKeyFor(origin)
  const outcome = await runPolicedCommand(
    {
      env: { ...execEnvironment(opened), policy: opened.policy },
      command: input.command,
      mode: input.mode,
      approved: input.approved,
      timeoutSeconds: input.timeoutSeconds,
      tenant: caller.userId,
    },
    {
      audit: commandAuditor(caller, row, origin),
      exec: (env, command, opts) =>
        asRunningCommand({ person: caller.userId, org: row.orgId }, () =>
          workingIn(row, () => watched(() => provider.exec(env, command, { ...opts, stopKey }))),
        ),
    },
  )
  const local = folderHere(opened.target) && outcome.status === 'ran'
  await touchEnvironment(row.id, local ? outcome.result.disk.usedBytes : undefined)
  return outcome
}

/**
 * What a provider runs `opened`'s commands (and harness programs) in: its folder, secrets, hosts and
 * `limits`, with its organisation's disk total both as it was when opened (`quotaNote`, named in a
 * refusal, decision 0491) and as it moves while they run (`orgDisk`, decision 0498).
 */
export function execEnvironment(opened: OpenEnvironment, limits = opened.limits): ExecEnvironment {
  return {
    root: opened.root,
    secrets: opened.secrets,
    allowedHosts: opened.definition.policy.network.allow,
    limits,
    ...(opened.files.quotaNote ? { quotaNote: opened.files.quotaNote } : {}),
    ...(folderHere(opened.target) ? { orgDisk: (used: number) => shareOrgDisk(opened.row, used) } : {}),
  }
}

/** Writes a command's audit row: who, which run or thread, the decision and how it ended. */
function commandAuditor(caller: Caller, row: EnvironmentRow, origin: Origin = {}) {
  return async (e: CommandAudit) => {
    await insertAudit({
      environmentId: row.id,
      orgId: row.orgId,
      actorId: caller.userId,
      runId: origin.runId,
      threadId: origin.threadId,
      kind: 'command',
      subject: e.command,
      decision: e.decision,
      rule: e.rule,
      reason: e.reason,
      exitCode: e.exitCode,
      durationMs: e.durationMs,
      bytesOut: e.bytesOut,
    })
  }
}

/** Audits a file write (path and size only: the content is never kept). */
export async function auditWrite(
  caller: Caller,
  opened: OpenEnvironment,
  path: string,
  bytes: number,
  origin: Origin = {},
) {
  await insertAudit({
    environmentId: opened.row.id,
    orgId: opened.row.orgId,
    actorId: caller.userId,
    runId: origin.runId,
    threadId: origin.threadId,
    kind: 'write',
    subject: opened.files.redact ? opened.files.redact(path) : path,
    decision: 'allowed',
    bytesOut: bytes,
  })
  await touchEnvironment(opened.row.id, undefined)
}
