/**
 * Environments as people see them on the Environments pages and through the HTTP API: the list
 * (records and definitions merged), one environment with its definition, its files (read-only),
 * the command box and a page of the audit trail. Opening, running and auditing go through the
 * service (same policy, secrets and access as the agent's tools); this adds only the views.
 *
 * An environment is named by its id (`env_…`, once used) or by its name, resolved as the agent
 * resolves it (personal first, then shared) unless a scope is given.
 */
import { hostname } from 'node:os'
import { z } from 'zod'
import type { Caller } from '../../access/caller.ts'
import { canEditJob, canViewJob } from '../../access/rules.ts'
import { conflict, HttpError, isNotFound, notFound } from '../../lib/errors.ts'
import { queryInteger } from '../../lib/query-integer.ts'
import { parseInput } from '../../lib/validate.ts'
import { listResources, readResource, type ResourceScope } from '../../resources/service.ts'
import type { BootstrapRecord } from '../bootstrap/bootstrap.ts'
import { countAudit, selectAuditPage, selectVisibleEnvironments } from './browse-store.ts'
import { EnvironmentName, parseEnvironmentFile } from '../definition/definition.ts'
import { definitionNameOf } from '../definition/file-validator.ts'
import { here } from '../instance.ts'
import { buildsNothing } from '../bootstrap/lifecycle.ts'
import { operateOn } from '../operations/operations.ts'
import { MAX_READ_LINES, ReadFileInput } from '../files/files-schema.ts'
import { openEnvironment, SCRATCH } from '../service.ts'
import { findEnvironment, findEnvironmentById, type EnvironmentRow } from '../store.ts'

/**
 * `ready`: its folder is on this instance; `not_started`: defined, never used (no folder yet);
 * `elsewhere`: its folder lives on another instance; `no_definition`: used, but its file was deleted.
 */
export type EnvironmentStatus = 'ready' | 'not_started' | 'elsewhere' | 'no_definition'

export type EnvironmentSummary = {
  /** Null until the environment is first used. */
  id: string | null
  name: string
  scope: ResourceScope
  status: EnvironmentStatus
  sizeBytes: number
  lastActivityAt: string | null
  instanceId: string | null
  /** The workspace file that defines it, or null (scratch needs none; a deleted one). */
  definitionPath: string | null
  /** May the caller run commands in it (creator, or an admin for a shared one)? */
  canUse: boolean
  /** A shared environment hidden by the caller's personal one of the same name (the agent uses theirs). */
  shadowed: boolean
}

// For seeing: a personal environment is its record's creator's, a shared one every member's.
const facts = (row: EnvironmentRow) => ({ orgId: row.orgId, scope: row.scope, createdBy: row.createdBy })
const definitionPath = (name: string) => `environments/${name}.md`

/** The definition file as this caller finds it: may they change it (and so use the environment)? */
type DefinitionFile = { text: string; canEdit: boolean }

function summarize(
  caller: Caller,
  scope: ResourceScope,
  name: string,
  row: EnvironmentRow | undefined,
  file: Pick<DefinitionFile, 'canEdit'> | null,
): EnvironmentSummary {
  const defined = file !== null
  const status: EnvironmentStatus = !row
    ? 'not_started'
    : row.instanceId !== here().instanceId && row.instanceId !== hostname() // bare host: legacy, adopted on open
      ? 'elsewhere'
      : defined || name === SCRATCH
        ? 'ready'
        : 'no_definition'
  return {
    id: row?.id ?? null,
    name,
    scope,
    status,
    sizeBytes: row?.sizeBytes ?? 0,
    lastActivityAt: row?.lastActivityAt.toISOString() ?? null,
    instanceId: row?.instanceId ?? null,
    definitionPath: defined ? definitionPath(name) : null,
    // A shared one is used by whoever may change its definition: its creator and the admins.
    canUse: scope === 'personal' ? !row || canEditJob(caller, facts(row)) : (file?.canEdit ?? false),
    shadowed: false,
  }
}

/** Every environment the caller can see: used ones, defined ones, and their personal scratch. */
export async function listEnvironments(caller: Caller): Promise<EnvironmentSummary[]> {
  const [rows, tree] = await Promise.all([
    selectVisibleEnvironments(caller),
    listResources(caller, 'environments/'),
  ])
  const defined = new Map<string, { canEdit: boolean }>()
  for (const scope of ['personal', 'shared'] as const) {
    for (const entry of tree[scope]) {
      const name = definitionNameOf(entry.path)
      if (name && EnvironmentName.safeParse(name).success) defined.set(`${scope}/${name}`, entry)
    }
  }
  const keys = new Set([...defined.keys(), `personal/${SCRATCH}`])
  for (const row of rows) keys.add(`${row.scope}/${row.name}`)
  const list = [...keys].map((key) => {
    const [scope, name] = key.split('/') as [ResourceScope, string]
    const row = rows.find((r) => r.scope === scope && r.name === name)
    return summarize(caller, scope, name, row, defined.get(key) ?? null)
  })
  const personal = new Set(list.filter((e) => e.scope === 'personal').map((e) => e.name))
  for (const e of list) e.shadowed = e.scope === 'shared' && personal.has(e.name)
  return list.sort((a, b) => a.name.localeCompare(b.name) || a.scope.localeCompare(b.scope))
}

export type EnvironmentDetail = EnvironmentSummary & {
  /** The parsed definition, or why it does not parse (a file stored before validation). */
  definition:
    | {
        ok: true
        provider: string
        secrets: string[]
        instructions: string
        defaultDecision: string
        /** Has a source, setup or git skills: its folder is built (bootstrapped) on first use. */
        builds: boolean
      }
    | { ok: false; message: string }
    | null
}

const scope = z
  .enum(['personal', 'shared'], { error: 'must be "personal" or "shared"' })
  .optional()
  .describe('Which workspace defines it; default: personal first, then shared (as the agent resolves names)')
const RefQuery = z.strictObject({ scope })

async function readDefinitionFile(
  caller: Caller,
  scope: ResourceScope,
  name: string,
): Promise<DefinitionFile | null> {
  try {
    const file = await readResource(caller, scope, definitionPath(name))
    return { text: file.content, canEdit: file.canEdit }
  } catch (err) {
    if (isNotFound(err)) return null
    throw err
  }
}

/** One environment by id or name (`query.scope` picks the workspace). @throws 404 when not visible. */
export async function getEnvironment(
  caller: Caller,
  ref: string,
  query: unknown = {},
): Promise<EnvironmentDetail> {
  const found = await resolve(caller, ref, parseInput(RefQuery, query).scope)
  const summary = summarize(caller, found.scope, found.name, found.row, found.file)
  if (found.scope === 'shared') summary.shadowed = await hasPersonal(caller, found.name)
  return { ...summary, definition: found.file === null ? null : describeDefinition(found.file.text) }
}

function describeDefinition(text: string): EnvironmentDetail['definition'] {
  try {
    const parsed = parseEnvironmentFile(text)
    return {
      ok: true,
      provider: parsed.provider,
      secrets: parsed.secrets,
      instructions: parsed.instructions,
      defaultDecision: parsed.policy.default,
      builds: !buildsNothing(parsed),
    }
  } catch (err) {
    if (err instanceof HttpError) return { ok: false, message: err.message }
    throw err
  }
}

async function resolve(caller: Caller, ref: string, scope: ResourceScope | undefined) {
  if (ref.startsWith('env_')) {
    const row = await findEnvironmentById(ref)
    if (!row || !canViewJob(caller, facts(row))) throw notFound('No such environment')
    return {
      scope: row.scope,
      name: row.name,
      row,
      file: await readDefinitionFile(caller, row.scope, row.name),
    }
  }
  const name = parseInput(z.object({ name: EnvironmentName }), { name: ref }).name
  for (const s of scope ? [scope] : (['personal', 'shared'] as const)) {
    const [row, file] = await Promise.all([
      findEnvironment({ orgId: caller.orgId, scope: s, name, createdBy: caller.userId }),
      readDefinitionFile(caller, s, name),
    ])
    if (row || file !== null || (s === 'personal' && name === SCRATCH)) return { scope: s, name, row, file }
  }
  throw notFound(`No environment named ${name}: create environments/${name}.md in your workspace`)
}

async function hasPersonal(caller: Caller, name: string): Promise<boolean> {
  const key = { orgId: caller.orgId, scope: 'personal' as const, name, createdBy: caller.userId }
  if (name === SCRATCH || (await findEnvironment(key))) return true
  return (await readDefinitionFile(caller, 'personal', name)) !== null
}

/**
 * Opens the environment through the service (which resolves the name as the agent does) and checks
 * it is the one the page shows: a personal one of the same name would otherwise be used instead.
 * Only a command builds the tree: reading files shows the folder as it is, even mid-build.
 */
async function openShown(caller: Caller, shown: EnvironmentDetail, need: 'view' | 'use') {
  const opened = await openEnvironment(caller, shown.name, need, { prepare: need === 'use' })
  if (opened.row.scope !== shown.scope) {
    throw conflict(
      `Your personal environment ${shown.name} has the same name, and the agent and the command box use ` +
        `it instead of the shared one: rename one of them`,
      'environment',
    )
  }
  return opened
}

/**
 * The last (or current) bootstrap of an environment named by id or name (`query.scope`), null
 * before its first build: what the environment page polls while one runs.
 */
export async function getBootstrapOf(
  caller: Caller,
  ref: string,
  query: unknown = {},
): Promise<BootstrapRecord | null> {
  const found = await resolve(caller, ref, parseInput(RefQuery, query).scope)
  const record = (found.row?.bootstrap as BootstrapRecord | null | undefined) ?? null
  if (!record || !found.file || found.file.canEdit || definedSecrets(found.file.text).length === 0)
    return record
  return withoutOutput(record)
}

/** The secrets a definition names (none when it does not parse). */
function definedSecrets(text: string): string[] {
  const described = describeDefinition(text)
  return described?.ok ? described.secrets : []
}

/**
 * A build as a viewer of an environment with secrets sees it: the steps and their outcome without
 * their output, which may hold what the secrets made (redaction is no control: base64 passes it).
 */
function withoutOutput(record: BootstrapRecord): BootstrapRecord {
  return {
    ...record,
    steps: record.steps.map(({ tail: _tail, ...step }) => step),
    ...(record.error ? { error: record.error.split('\n')[0] } : {}),
  }
}

const FilesQuery = z.strictObject({
  scope,
  path: z.string().max(1024).optional().describe('Folder to list, relative to the root (default: the root)'),
})
// Numbers arrive as query-string text.
const FileQuery = ReadFileInput.extend({
  scope,
  offset: queryInteger({ min: 1 }).optional(),
  limit: queryInteger({ min: 1, max: MAX_READ_LINES }).optional(),
})

/** Every file and folder below `path` (at most 1000 entries); empty before the first use. */
export async function listEnvironmentFiles(caller: Caller, ref: string, query: unknown) {
  const { scope: where, path } = parseInput(FilesQuery, query)
  const shown = await getEnvironment(caller, ref, { scope: where })
  if (!shown.id) return { path: path || '.', entries: [] }
  const opened = await openShown(caller, shown, 'view')
  return operateOn(caller, opened, { name: shown.name }, 'list_directory', { path, recursive: true })
}

/** A text file of the environment, by lines (secret values shown as ••••). */
export async function readEnvironmentFile(caller: Caller, ref: string, query: unknown) {
  const { scope: where, ...input } = parseInput(FileQuery, query)
  const shown = await getEnvironment(caller, ref, { scope: where })
  if (!shown.id) throw notFound(`path: ${input.path} does not exist (the environment is not started yet)`)
  const opened = await openShown(caller, shown, 'view')
  return operateOn(caller, opened, { name: shown.name }, 'read_file', input)
}

export const PersonCommandInput = z.strictObject({
  command: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(16_384, 'must be at most 16,384 characters')
    .describe('A shell command line, run with bash in the environment folder'),
  timeoutSeconds: z
    .number({ error: 'must be a whole number of seconds from 1 to 3600' })
    .int()
    .min(1)
    .max(3600)
    .optional()
    .describe('Wall-clock limit'),
})

/**
 * The command box: a person's command under the environment's policy, audited as theirs. Typing
 * it is the approval an `ask` rule wants (DESIGN: only the person answers), so `ask` runs, audited
 * as approved; `deny` is refused with its rule. Answers the files the command changed.
 */
export async function runPersonCommand(caller: Caller, ref: string, body: unknown, query: unknown = {}) {
  const shown = await getEnvironment(caller, ref, query)
  const input = parseInput(PersonCommandInput, body)
  const opened = await openShown(caller, shown, 'use')
  // Through the provider: a machine's folder, or forwarded to the instance holding it.
  const outcome = await operateOn(caller, opened, { name: shown.name }, 'run_command', {
    ...input,
    mode: 'person',
  })
  if (outcome.status !== 'ran') {
    // Audited already; the caller learns which rule refused it.
    throw new HttpError(403, 'command_denied', outcome.reason, 'command')
  }
  return {
    environmentId: opened.row.id,
    decision: outcome.decision,
    rule: outcome.rule,
    result: outcome.result,
    files: outcome.files ?? [],
  }
}

const AuditKind = z.enum(['command', 'write', 'change'], { error: 'must be command, write or change' })
const AuditQuery = z.strictObject({
  before: queryInteger({ min: 1 }).optional().describe('Entries older than this entry id'),
  limit: queryInteger({ min: 1, max: 1000 }).default(200),
  kinds: z
    .preprocess((v) => (typeof v === 'string' ? v.split(',') : v), z.array(AuditKind).min(1))
    .optional()
    .describe('Only these kinds, comma separated (command, write, change); default all'),
})

/** A page of the audit trail, newest first; `nextCursor` continues with older entries. */
export async function getAuditPage(caller: Caller, id: string, query: unknown) {
  const { before, limit, kinds } = parseInput(AuditQuery, query)
  const row = await findEnvironmentById(id)
  if (!row || !canViewJob(caller, facts(row))) throw notFound('No such environment')
  const [rows, total] = await Promise.all([
    selectAuditPage(id, { before, limit: limit + 1, kinds }),
    countAudit(id, kinds),
  ])
  const entries = rows.slice(0, limit).map(({ entry, actorName, actorEmail }) => ({
    ...entry,
    at: entry.at.toISOString(),
    actor: entry.actorId ? { id: entry.actorId, name: actorName, email: actorEmail } : null,
  }))
  return {
    entries,
    total,
    nextCursor: rows.length > limit ? String(entries.at(-1)!.id) : null,
  }
}
