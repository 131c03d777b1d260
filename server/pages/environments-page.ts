/**
 * Server side of the Environments pages (app/routes/_app.environments.*): the list, and one
 * environment with its files, the file opened in the viewer, its recent file changes, a page of
 * its audit trail and the command box. Each section that can fail on its own (a folder on another instance, a secret not
 * stored yet) reports why as data, so the rest of the page still shows.
 */
import { isOrgAdmin } from '../access/caller.ts'
import type { Caller } from '../auth/caller.ts'
import {
  getAuditPage,
  getBootstrapOf,
  getEnvironment,
  listEnvironmentFiles,
  listEnvironments,
  readEnvironmentFile,
  runPersonCommand,
  type EnvironmentSummary,
} from '../environments/browse/browse.ts'
import { recentFileChanges } from '../environments/browse/file-changes.ts'
import { holderState, rebuildHere } from '../environments/bootstrap/rebuild.ts'
import { deleteEnvironmentAsked, deleteOptionsOf } from '../environments/operations/delete-environment.ts'
import { orgDiskUse } from '../environments/org-disk.ts'
import { SCRATCH } from '../environments/service.ts'
import { conflict, HttpError } from '../lib/errors.ts'
import { redirect } from 'react-router'
import { runForm } from './forms.ts'
import { orRouteError } from './page-errors.ts'
import { createEnvironmentFile } from './workspace-create.ts'

/**
 * May the caller delete it from a page? A personal one the caller sees is theirs; a shared one is
 * the admins' (decision 0461). Scratch and one not used yet have nothing to delete.
 */
const canDeleteFromPage = (caller: Caller, e: Pick<EnvironmentSummary, 'id' | 'name' | 'scope'>) =>
  e.id !== null && e.name !== SCRATCH && (e.scope === 'personal' || isOrgAdmin(caller))

/**
 * Delete, by name and scope as a page shows it (intent `delete`); `leaveFolder` when the dialog
 * said that the folder's instance does not answer and the folder stays there (decision 0466).
 */
async function deleteByName(
  caller: Caller,
  name: string,
  scope: string | undefined,
  leaveFolder: string | undefined,
) {
  const options = deleteOptionsOf({ leaveFolder })
  const { id } = await getEnvironment(caller, name, { scope })
  if (!id) throw conflict(`The environment ${name} has no folder yet: nothing to delete`)
  return deleteEnvironmentAsked(caller, id, options)
}

/**
 * The list. A row whose definition is gone (_No definition_) offers Delete to whoever may delete
 * it, since nothing else on the list leads to its page's Delete (decision 0464).
 */
export async function loadEnvironmentsList(caller: Caller) {
  const [environments, disk] = await orRouteError(
    Promise.all([listEnvironments(caller), orgDiskUse(caller.orgId)]),
  )
  return {
    disk,
    environments: environments.map((e) => ({
      ...e,
      // Whether its folder is here or on another instance (the delete is forwarded there, 0466).
      canDelete: e.definitionPath === null && canDeleteFromPage(caller, e),
    })),
  }
}

/**
 * "New environment" on the list (intent `create-environment`): writes its definition as the
 * workspace's "+ Environment" does, then opens the new environment's page. Delete on a row
 * (intent `delete`, with its `name` and `scope`): the list then shows it gone.
 */
export async function handleEnvironmentsListAction(caller: Caller, request: Request) {
  return runForm(request, async ({ intent = '', ...fields }) => {
    if (intent === 'delete') return deleteByName(caller, fields.name ?? '', fields.scope, fields.leaveFolder)
    if (intent !== 'create-environment')
      throw new HttpError(400, 'bad_request', `Unknown intent "${intent}"`, 'intent')
    const { name, scope } = await createEnvironmentFile(caller, fields)
    // Thrown, as React Router allows, so the action's answers stay results.
    throw redirect(`/environments/${name}?${new URLSearchParams({ scope })}`)
  })
}

/**
 * A section's data, or the message saying why it cannot be shown: a 4xx, or the instance holding
 * the folder not answering (503 `environment_unreachable`, where the page offers "Rebuild here").
 * Any other 5xx still throws.
 */
async function section<T>(work: Promise<T>): Promise<{ ok: true; data: T } | { ok: false; message: string }> {
  try {
    return { ok: true, data: await work }
  } catch (err) {
    if (err instanceof HttpError && (err.status < 500 || err.code === 'environment_unreachable'))
      return { ok: false, message: err.message }
    throw err
  }
}

/** `?scope=` picks the workspace, `?file=` opens a file, `?cursor=` pages the audit trail. */
export async function loadEnvironmentPage(caller: Caller, name: string, url: URL) {
  const scope = url.searchParams.get('scope') ?? undefined
  const environment = await orRouteError(getEnvironment(caller, name, { scope }))
  const where = { scope: environment.scope }
  const selected = url.searchParams.get('file')
  const cursor = url.searchParams.get('cursor')
  const [files, file, audit, holder, changes, bootstrap] = await Promise.all([
    section(listEnvironmentFiles(caller, name, where)),
    selected ? section(readEnvironmentFile(caller, name, { ...where, path: selected })) : null,
    environment.id
      ? section(
          // File events have their own list on the page (recent file changes).
          getAuditPage(caller, environment.id, {
            limit: '25',
            kinds: 'command,write',
            ...(cursor ? { before: cursor } : {}),
          }),
        )
      : null,
    // Its folder is on another instance: does that one answer, or may the caller rebuild it here?
    environment.status === 'elsewhere' && environment.id ? holderState(caller, environment.id) : null,
    environment.id ? section(recentFileChanges(caller, environment.id)) : null,
    // How its folder was (or is being) built; the page then follows it live.
    environment.id ? getBootstrapOf(caller, environment.id) : null,
  ])
  const canDelete = canDeleteFromPage(caller, environment)
  return { environment, files, selected, file, audit, holder, changes, bootstrap, canDelete }
}

/**
 * The command box (intent `run`): the command's output, or why it was refused. "Rebuild here"
 * (intent `rebuild`): the environment moves to this instance, refused while its holder answers.
 * Delete (intent `delete`): its folder, snapshot and record go, then the list is shown.
 */
export async function handleEnvironmentAction(caller: Caller, name: string, request: Request) {
  return runForm(request, async ({ intent = '', scope, ...fields }) => {
    if (intent === 'delete') {
      await deleteByName(caller, name, scope, fields.leaveFolder)
      // Thrown, as React Router allows, so the action's answers stay results.
      throw redirect('/environments')
    }
    if (intent === 'rebuild') {
      const { id } = await getEnvironment(caller, name, { scope })
      if (!id) throw conflict(`The environment ${name} has no folder yet`)
      return rebuildHere(caller, id)
    }
    if (intent !== 'run') throw new HttpError(400, 'bad_request', `Unknown intent "${intent}"`, 'intent')
    return runPersonCommand(caller, name, { command: fields.command ?? '' }, { scope })
  })
}
