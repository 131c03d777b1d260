/**
 * Environments as use cases: find (or create on first use) the environment a caller names, with
 * the same visibility and edit rules as jobs (a personal one is its creator's alone; a shared one
 * every member sees, and its creator and the org's admins use); run commands and change files in
 * it under its policy, injecting its secrets; audit every command and file write.
 *
 * Its definition is the workspace file `environments/<name>.md` (personal first, then shared);
 * `scratch` needs none. Its folder lives on the host that created it (recorded); a call arriving
 * on another host is refused with a clear message (forwarding between instances is not built yet).
 */
import { hostname } from 'node:os'
import { join, resolve } from 'node:path'
import type { Caller } from '../access/caller.ts'
import { canEditJob, canViewJob } from '../access/rules.ts'
import { env as appEnv } from '../env.ts'
import { resolveSecretValues } from '../keys/secrets-service.ts'
import { badRequest, conflict, forbidden, HttpError, notFound } from '../lib/errors.ts'
import { newId } from '../lib/ids.ts'
import { readResource } from '../resources/service.ts'
import { type CommandMode, type CommandOutcome, runPolicedCommand } from './commands.ts'
import { type EnvironmentDefinition, EnvironmentName, parseEnvironmentFile } from './definition.ts'
import type { FileContext } from './files-schema.ts'
import { prepareFolder } from './identity.ts'
import { mergePolicies } from './policy.ts'
import { makeRedactor } from './redact.ts'
import { prepareTree } from './tree.ts'
import {
  type EnvironmentRow,
  findEnvironment,
  findEnvironmentById,
  insertAudit,
  insertEnvironment,
  selectAudit,
  touchEnvironment,
} from './store.ts'

export const SCRATCH = 'scratch'

/** Where a call comes from, for the audit: a chat thread or a job run. */
export type Origin = { threadId?: string; runId?: string }

export type OpenEnvironment = {
  row: EnvironmentRow
  definition: EnvironmentDefinition
  root: string
  secrets: Record<string, string>
  files: FileContext
}

const environmentsDir = () => resolve(appEnv().ENVIRONMENTS_DIR)
const execOptions = () => ({ dataDir: resolve('.data'), environmentsDir: environmentsDir() })

async function readDefinition(caller: Caller, name: string) {
  for (const scope of ['personal', 'shared'] as const) {
    try {
      const file = await readResource(caller, scope, `environments/${name}.md`)
      return { scope, definition: parseEnvironmentFile(file.content) }
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 404) throw err
    }
  }
  if (name === SCRATCH) return { scope: 'personal' as const, definition: parseEnvironmentFile('') }
  throw notFound(
    `No environment named ${name}: create environments/${name}.md in your workspace (or use ${SCRATCH})`,
  )
}

const facts = (row: EnvironmentRow) => ({ orgId: row.orgId, scope: row.scope, createdBy: row.createdBy })

/** The environment `name` (default `scratch`) for `caller`, created on first use. */
export async function openEnvironment(
  caller: Caller,
  name: unknown,
  need: 'view' | 'use',
): Promise<OpenEnvironment> {
  const parsed = EnvironmentName.safeParse(name ?? SCRATCH)
  if (!parsed.success) throw badRequest(`environment: ${parsed.error.issues[0]!.message}`, 'environment')
  const { scope, definition } = await readDefinition(caller, parsed.data)
  const key = { orgId: caller.orgId, scope, name: parsed.data, createdBy: caller.userId }
  const row =
    (await findEnvironment(key)) ??
    (await insertEnvironment({
      id: newId('env'),
      ...key,
      instanceId: hostname(),
      dir: join(caller.orgId, scope === 'personal' ? caller.userId : 'shared', parsed.data),
    }))
  if (!row) throw conflict(`The environment ${parsed.data} could not be created`, 'environment')
  return open(caller, row, definition, need)
}

async function open(
  caller: Caller,
  row: EnvironmentRow,
  definition: EnvironmentDefinition,
  need: 'view' | 'use',
) {
  if (!canViewJob(caller, facts(row))) throw notFound(`No environment named ${row.name}`)
  if (need === 'use' && !canEditJob(caller, facts(row))) {
    throw forbidden(
      `Only its creator and the organisation's admins may work in the shared environment ${row.name}`,
    )
  }
  if (row.instanceId !== hostname()) {
    throw new HttpError(
      409,
      'elsewhere',
      `The environment ${row.name} lives on instance ${row.instanceId}, not this one (${hostname()})`,
    )
  }
  const root = join(environmentsDir(), row.dir)
  const owner = await prepareFolder(root)
  const owners =
    row.scope === 'personal'
      ? [{ userId: caller.userId }, { orgId: caller.orgId }]
      : [{ orgId: caller.orgId }]
  const { values, missing } = await resolveSecretValues(owners, definition.secrets)
  if (missing.length > 0) {
    throw badRequest(
      `secrets: ${missing.join(', ')} not stored; add them under Settings → Secrets`,
      'secrets',
    )
  }
  const quotaBytes = (definition.limits.diskMb ?? 1024) * 1024 * 1024
  const redact = makeRedactor(Object.values(values))
  const files = { root, owner, quotaBytes, redact }
  // Build (or restore) the tree for this definition and project its instructions and skills.
  if (canEditJob(caller, facts(row))) await prepareTree(caller, row, definition, files, values, execOptions())
  return { row, definition, root, secrets: values, files }
}

/** Runs a command under the environment's policy and audits it. */
export async function runInEnvironment(
  caller: Caller,
  opened: OpenEnvironment,
  input: { command: string; timeoutSeconds?: number; mode: CommandMode; approved?: boolean },
  origin: Origin = {},
): Promise<CommandOutcome> {
  const { row, definition } = opened
  const outcome = await runPolicedCommand(
    {
      env: {
        root: opened.root,
        secrets: opened.secrets,
        allowedHosts: definition.policy.network.allow,
        limits: definition.limits,
        policy: mergePolicies(undefined, {
          commands: definition.policy.commands,
          default: definition.policy.default,
        }),
      },
      command: input.command,
      mode: input.mode,
      approved: input.approved,
      timeoutSeconds: input.timeoutSeconds,
    },
    {
      audit: async (e) =>
        insertAudit({
          environmentId: row.id,
          orgId: row.orgId,
          actorId: caller.userId,
          ...origin,
          kind: 'command',
          subject: e.command,
          decision: e.decision,
          rule: e.rule,
          reason: e.reason,
          exitCode: e.exitCode,
          durationMs: e.durationMs,
          bytesOut: e.bytesOut,
        }),
      execOptions: execOptions(),
    },
  )
  await touchEnvironment(row.id, outcome.status === 'ran' ? outcome.result.disk.usedBytes : undefined)
  return outcome
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
    ...origin,
    kind: 'write',
    subject: opened.files.redact ? opened.files.redact(path) : path,
    decision: 'allowed',
    bytesOut: bytes,
  })
  await touchEnvironment(opened.row.id, undefined)
}

/** The audit trail of an environment the caller can see, newest first. */
export async function getAudit(caller: Caller, id: string, limit = 200) {
  const row = await findEnvironmentById(id)
  if (!row || !canViewJob(caller, facts(row))) throw notFound('No such environment')
  const rows = await selectAudit(id, Math.min(Math.max(limit, 1), 1000))
  return rows.map((r) => ({ ...r, at: r.at.toISOString() }))
}

/** The last bootstrap or restore of an environment the caller can see (null before the first). */
export async function getBootstrap(caller: Caller, id: string) {
  const row = await findEnvironmentById(id)
  if (!row || !canViewJob(caller, facts(row))) throw notFound('No such environment')
  return row.bootstrap ?? null
}
