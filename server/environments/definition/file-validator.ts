/**
 * The rules the workspace applies to `environments/<name>.md`: the name is a slug and the file
 * parses as a definition (400 naming the field and its line otherwise); a shared definition
 * belongs to its creator (only they and the organisation's admins change it, docs/decisions/0221);
 * and the writer may name only the secrets a definition of that scope may get (decision 0220).
 * Start-up installs them with resources (server/http/server.ts), so every write path (the
 * resources API, the workspace page, the agent's workspace tool) runs them without importing them.
 */
import { firstRefusedSecret } from '../../keys/secret-rules.ts'
import { badRequest, HttpError } from '../../lib/errors.ts'
import type { FileProblem, FileValidator, FileWrite } from '../../resources/validators.ts'
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
    return { status: err.status, code: err.code, message: err.message, field: err.field, fields: err.fields }
  }
}

/** The secrets the writer may not name in a definition of this scope (400 on `secrets.<i>`). */
async function secretsProblem({ caller, scope, path, text }: FileWrite): Promise<FileProblem | null> {
  if (definitionNameOf(path) === null) return null
  const refused = await firstRefusedSecret(caller, scope, parseEnvironmentFile(text).secrets)
  if (!refused) return null
  const field = `secrets.${refused.index}`
  return { status: 400, code: 'bad_request', message: `${field}: ${refused.message}`, field }
}

export const definitionFileValidator: FileValidator = {
  prefix: `${ENVIRONMENTS_FOLDER}/`,
  check: definitionProblem,
  ownedWhenShared: true,
  checkWriter: secretsProblem,
}
