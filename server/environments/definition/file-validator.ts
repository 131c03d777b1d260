/**
 * The check the workspace runs before storing `environments/<name>.md`: the name is a slug and the
 * file parses as a definition (400 naming the field and its line otherwise). Start-up installs it
 * with resources (server/http/server.ts), so every write path runs it without importing it.
 */
import { badRequest, HttpError } from '../../lib/errors.ts'
import type { FileProblem, FileValidator } from '../../resources/validators.ts'
import { ENVIRONMENTS_FOLDER, EnvironmentName, parseEnvironmentFile } from './definition.ts'

/** The environment a workspace path defines (`environments/<name>.md`), or null for other files. */
export function definitionNameOf(path: string): string | null {
  const match = /^environments\/([^/]+)\.md$/.exec(path)
  return match ? match[1]! : null
}

export function validateDefinitionFile(path: string, text: string): void {
  const name = definitionNameOf(path)
  if (name === null) return
  const parsed = EnvironmentName.safeParse(name)
  if (!parsed.success) {
    throw badRequest(`path: the environment name "${name}" ${parsed.error.issues[0]!.message}`, 'path')
  }
  parseEnvironmentFile(text)
}

/** {@link validateDefinitionFile}'s refusal as data (see resources/validators.ts for why). */
function definitionProblem(path: string, text: string): FileProblem | null {
  try {
    validateDefinitionFile(path, text)
    return null
  } catch (err) {
    if (!(err instanceof HttpError)) throw err
    return { status: err.status, code: err.code, message: err.message, field: err.field }
  }
}

export const definitionFileValidator: FileValidator = {
  prefix: `${ENVIRONMENTS_FOLDER}/`,
  check: definitionProblem,
}
