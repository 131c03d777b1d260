/**
 * Checks a workspace file must pass before it is stored, by path prefix. Domains above resources
 * (environments, for `environments/<name>.md`) provide theirs and start-up installs them once
 * (server/http/server.ts), so this layer refuses an invalid definition on every write path (HTTP,
 * workspace page, agent tool) without importing them. Until start-up has installed them every
 * write is refused: a process that skips the installation fails loudly instead of letting invalid
 * files through.
 *
 * The set is kept by `singleton()` so that it survives a development reload of this module (and
 * the test runner's own import of it); a check answers its problem as data, and the error is made
 * here, by the module that handles the write.
 */
import { HttpError } from '../lib/errors.ts'
import { singleton } from '../lib/singleton.ts'

/** Why a file is refused: what the HttpError would carry (400 naming the field and line, or 413). */
export type FileProblem = { status: number; code: string; message: string; field?: string }

/** The check for files whose path starts with `prefix`: their problem, or null when valid. */
export type FileValidator = { prefix: string; check: (path: string, text: string) => FileProblem | null }

const registry = singleton('resources.file-validators', () => ({
  validators: null as readonly FileValidator[] | null,
}))

/** Installs the checks every write runs; start-up calls this once (again replaces them). */
export function installFileValidators(validators: readonly FileValidator[]): void {
  registry.validators = [...validators]
}

/**
 * Runs the installed checks that apply to `path`.
 * @throws HttpError with the check's problem; a plain Error when start-up installed no checks.
 */
export function validateFileContent(path: string, text: string): void {
  const { validators } = registry
  if (!validators) {
    throw new Error('workspace file checks were never installed: start-up calls installFileValidators()')
  }
  for (const { prefix, check } of validators) {
    if (!path.startsWith(prefix)) continue
    const problem = check(path, text)
    if (problem) throw new HttpError(problem.status, problem.code, problem.message, problem.field)
  }
}

/** Whether some installed check applies to `path` (the editor then validates as you type). */
export const hasFileValidator = (path: string): boolean =>
  (registry.validators ?? []).some(({ prefix }) => path.startsWith(prefix))
