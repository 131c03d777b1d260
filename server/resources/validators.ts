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
import type { AccessCaller } from '../access/rules.ts'
import { HttpError, type FieldProblem } from '../lib/errors.ts'
import { singleton } from '../lib/singleton.ts'

/**
 * Why a file is refused: what the HttpError would carry (400 naming the field and line, or 413);
 * `fields` lists each bad field when there is more than one.
 */
export type FileProblem = {
  status: number
  code: string
  message: string
  field?: string
  fields?: FieldProblem[]
}

const toError = (problem: FileProblem) =>
  new HttpError(problem.status, problem.code, problem.message, problem.field, problem.fields)

/** A write about to be stored, for the checks that depend on who writes it. */
export type FileWrite = {
  caller: AccessCaller
  scope: 'personal' | 'shared'
  path: string
  text: string
}

/** The rules for files whose path starts with `prefix`. */
export type FileValidator = {
  prefix: string
  /** The file's problem, or null when valid. */
  check: (path: string, text: string) => FileProblem | null
  /**
   * Shared files here belong to whoever created them: only the creator and the organisation's
   * admins change or delete them (the jobs' truth table); other members read them. Without it a
   * shared file is a team folder every member may change.
   */
  ownedWhenShared?: boolean
  /** What this writer may say in the file (their role, their stored secrets), after `check`. */
  checkWriter?: (write: FileWrite) => Promise<FileProblem | null>
}

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
    if (problem) throw toError(problem)
  }
}

/**
 * Runs the installed writer checks that apply to the write.
 * @throws HttpError with the check's problem.
 */
export async function validateWriter(write: FileWrite): Promise<void> {
  for (const { prefix, checkWriter } of registry.validators ?? []) {
    if (!checkWriter || !write.path.startsWith(prefix)) continue
    const problem = await checkWriter(write)
    if (problem) throw toError(problem)
  }
}

/** Whether shared files at `path` belong to their creator (see {@link FileValidator.ownedWhenShared}). */
export const isOwnedWhenShared = (path: string): boolean =>
  (registry.validators ?? []).some(
    ({ prefix, ownedWhenShared }) => ownedWhenShared && path.startsWith(prefix),
  )

/** Whether some installed check applies to `path` (the editor then validates as you type). */
export const hasFileValidator = (path: string): boolean =>
  (registry.validators ?? []).some(({ prefix }) => path.startsWith(prefix))
