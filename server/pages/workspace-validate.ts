/**
 * "Validated as you type" for the workspace editor: runs a job file through the same parser the
 * save uses, without saving, and answers the verdict as data. The token is the editor's, echoed
 * so the page can tell which text a verdict is for.
 */
import type { Caller } from '../auth/caller.ts'
import { HttpError, type FieldProblem } from '../lib/errors.ts'
import { describeSchedule } from '../cron/cron.ts'
import { parseJobFile } from '../jobs/job-file.ts'
import { readJobFile } from '../jobs/service.ts'
import { parseResourcePath, parseScope } from '../resources/paths.ts'
import { validateFileContent } from '../resources/validators.ts'

/**
 * `problems` names every bad field (one, or each of several), so the editor marks each line;
 * `message` joins them, as a save's refusal does.
 */
export type FileVerdict =
  | { token: string; valid: true; description: string | null }
  | { token: string; valid: false; message: string; field?: string; problems: FieldProblem[] }

/**
 * The verdict on `text` as the file at `scope`/`path`: job files as the jobs service parses them,
 * other files by the workspace's registered checks (environment definitions); the rest are valid.
 */
export async function validateWorkspaceFile(
  caller: Caller,
  fields: { scope?: string; path?: string; content?: string; token?: string },
): Promise<FileVerdict> {
  const token = fields.token ?? ''
  try {
    const scope = parseScope(fields.scope)
    const target = parseResourcePath(fields.path)
    if (target.kind === 'file') {
      validateFileContent(target.path, fields.content ?? '')
      return { token, valid: true, description: null }
    }
    const existing = await readJobFile(caller, scope, target.name).catch((err: unknown) => {
      if (err instanceof HttpError && err.status === 404) return null
      throw err
    })
    // Identity keys are checked against the same truth the save will use.
    const truth = existing
      ? { createdByEmail: existing.job.createdBy.email, orgId: existing.job.orgId }
      : { createdByEmail: caller.email, orgId: caller.orgId }
    const parsed = parseJobFile(fields.content ?? '', { name: target.name, truth })
    const timezone = parsed.timezone ?? existing?.job.timezone ?? caller.timezone ?? 'UTC'
    return { token, valid: true, description: describeSchedule(parsed.schedule, { timezone }) }
  } catch (err) {
    if (err instanceof HttpError) {
      const problems = err.fields ?? [{ field: err.field, message: err.message }]
      return { token, valid: false, message: err.message, field: err.field, problems }
    }
    throw err
  }
}
