/** Server side of the workspace page (app/routes/_app.workspace.tsx). */
import { redirect } from 'react-router'
import type { Caller } from '../auth/caller.ts'
import { JobName } from '../jobs/field-schemas.ts'
import { HttpError, badRequest } from '../lib/errors.ts'
import { runForm } from './forms.ts'
import {
  deleteResource,
  listResources,
  parseScope,
  readResource,
  writeResource,
} from '../resources/service.ts'
import { orRouteError } from './page-errors.ts'
import { assertAbsent, createEnvironmentFile, slugOf } from './workspace-create.ts'
import { validateWorkspaceFile } from './workspace-validate.ts'

/** The tree, and the file named by `?scope=&path=` (or why it cannot be shown). */
export async function loadWorkspace(caller: Caller, url: URL) {
  const tree = await orRouteError(listResources(caller))
  const scope = url.searchParams.get('scope')
  const path = url.searchParams.get('path')
  const base = { tree, selected: scope && path ? { scope, path } : null }
  if (!scope || !path) return { ...base, file: null, fileError: null }
  try {
    return { ...base, file: await readResource(caller, parseScope(scope), path), fileError: null }
  } catch (err) {
    if (err instanceof HttpError && err.status < 500) return { ...base, file: null, fileError: err.message }
    throw err
  }
}

const openFile = (scope: string, path: string) =>
  redirect(`/workspace?${new URLSearchParams({ scope, path })}`)

/** A new job file starts paused, so a half-written prompt never fires by surprise. */
function jobFileTemplate(timezone: string) {
  return [
    '---',
    'schedule: "0 9 * * 1-5"',
    `timezone: ${timezone}`,
    'enabled: false',
    '---',
    '',
    'Describe what the agent should do on every run. Set enabled: true above when it is ready.',
    '',
  ].join('\n')
}

/** validate (no save), save (If-Match), create-job, create-environment, create-file, delete. */
export async function handleWorkspaceAction(caller: Caller, request: Request) {
  const result = await runForm(request, async ({ intent = '', ...fields }) => {
    switch (intent) {
      case 'validate':
        return validateWorkspaceFile(caller, fields)
      case 'save': {
        const version = Number(fields.version)
        const ifMatch = fields.version && Number.isInteger(version) ? version : undefined
        const { resource } = await writeResource(
          caller,
          parseScope(fields.scope),
          fields.path,
          fields.content ?? '',
          { ifMatch },
        )
        return { resource }
      }
      case 'create-job': {
        const name = slugOf(fields.name, JobName)
        const scope = parseScope(fields.scope)
        const path = `jobs/${name}.md`
        await assertAbsent(caller, scope, path, 'name')
        await writeResource(caller, scope, path, jobFileTemplate(caller.timezone ?? 'UTC'))
        return { open: { scope, path } }
      }
      case 'create-environment': {
        const { scope, path } = await createEnvironmentFile(caller, fields)
        return { open: { scope, path } }
      }
      case 'create-file': {
        const path = (fields.path ?? '').trim()
        const scope = parseScope(fields.scope)
        await assertAbsent(caller, scope, path, 'path')
        await writeResource(caller, scope, path, '')
        return { open: { scope, path } }
      }
      case 'delete':
        await deleteResource(caller, parseScope(fields.scope), fields.path)
        return { open: null }
      default:
        throw badRequest(`Unknown intent "${intent}"`, 'intent')
    }
  })
  if (result.ok && result.data && 'open' in result.data) {
    return result.data.open ? openFile(result.data.open.scope, result.data.open.path) : redirect('/workspace')
  }
  return result
}
