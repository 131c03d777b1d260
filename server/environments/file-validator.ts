/**
 * Registers the check the workspace runs before storing `environments/<name>.md`: the name is a slug
 * and the file parses as a definition (400 naming the field and its line otherwise). Imported for
 * its effect by every module that writes workspace files above this layer (http/workspace-files.ts
 * for the resources route, the workspace page, the agent's workspace tool), so no write path skips it.
 */
import { badRequest } from '../lib/errors.ts'
import { registerFileValidator } from '../resources/validators.ts'
import { ENVIRONMENTS_FOLDER, EnvironmentName, parseEnvironmentFile } from './definition.ts'

const PREFIX = `${ENVIRONMENTS_FOLDER}/`

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

registerFileValidator(PREFIX, validateDefinitionFile)
