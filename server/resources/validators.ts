/**
 * Checks a workspace file must pass before it is stored, by path prefix. Domains above resources
 * (environments, for `environments/<name>.md`) register theirs, so this layer refuses an invalid
 * definition on every write path (HTTP, workspace page, agent tool) without importing them.
 */

/** Throws an HttpError (400 naming the field and line) when `text` is not valid at `path`. */
export type FileValidator = (path: string, text: string) => void

const validators = new Map<string, FileValidator>()

/** Registers the check for paths under `prefix` (e.g. `environments/`); registering again replaces it. */
export function registerFileValidator(prefix: string, validate: FileValidator): void {
  validators.set(prefix, validate)
}

/** Runs the registered checks that apply to `path`. @throws what the validator throws. */
export function validateFileContent(path: string, text: string): void {
  for (const [prefix, validate] of validators) if (path.startsWith(prefix)) validate(path, text)
}

/** Whether some registered check applies to `path` (the editor then validates as you type). */
export const hasFileValidator = (path: string): boolean =>
  [...validators.keys()].some((prefix) => path.startsWith(prefix))
