/**
 * The workspace: personal and shared files, where `jobs/<name>.md` are views of jobs. Job files go
 * through the jobs service (same schema, same access check, same audit: invariant 5); every other
 * path is a plain file (files.ts).
 */
import type { Caller } from '../auth/caller.ts'
import { renderJobFile } from '../jobs/job-file.ts'
import {
  deleteJobFile,
  listJobBriefs,
  readJobFile,
  writeJobFile,
  type JobBrief,
  type JobView,
} from '../jobs/service.ts'
import { toJobFileView } from '../jobs/views.ts'
import { canEditFile, deleteFile, ownerFor, readFile, writeFile, type ResourceView } from './files.ts'
import { parsePrefix, parseResourcePath, type ResourceScope } from './paths.ts'
import { selectResourceSummaries } from './store.ts'

export type { ResourceView } from './files.ts'
export { parseScope, type ResourceScope } from './paths.ts'

/** One entry of the workspace tree. Job files carry their job's id. */
export type ResourceEntry = {
  path: string
  kind: 'file' | 'job'
  size: number
  updatedAt: string
  jobId?: string
  canEdit: boolean
}

export type ResourceTree = { personal: ResourceEntry[]; shared: ResourceEntry[] }

const jobPath = (name: string) => `jobs/${name}.md`

/** A tree entry before sizing: a job file's size means rendering it, so only shown ones are sized. */
export type TreeRow = { entry: ResourceEntry; job?: JobBrief }

function jobRow(job: JobBrief): TreeRow {
  const entry: ResourceEntry = {
    path: jobPath(job.name),
    kind: 'job',
    size: 0,
    updatedAt: job.updatedAt,
    jobId: job.id,
    canEdit: job.canEdit,
  }
  return { entry, job }
}

/**
 * The entry with its size (a job file's as rendered). The file is the job's settings, then its
 * instructions as stored (trimmed at every write): its size is the settings rendered around no
 * instructions plus the instructions' bytes, which Postgres counts without sending them.
 */
export function sizedEntry({ entry, job }: TreeRow): ResourceEntry {
  if (!job) return entry
  const settings = renderJobFile({ ...toJobFileView(job), instructions: '' })
  return { ...entry, size: Buffer.byteLength(settings, 'utf8') + job.instructionsBytes }
}

function jobResource(scope: ResourceScope, text: string, job: JobView): ResourceView {
  return {
    path: jobPath(job.name),
    scope,
    content: text,
    version: job.version,
    canEdit: job.canEdit,
    contentType: 'text/markdown',
    updatedAt: job.updatedAt,
    jobId: job.id,
  }
}

/**
 * The caller's workspace tree under `prefix` (e.g. `jobs/`): their personal files and jobs, and
 * their organisation's shared ones. Jobs come from the visibility-filtered job list, so another
 * person's personal job never shows.
 */
export async function listResources(caller: Caller, prefix?: unknown): Promise<ResourceTree> {
  const rows = await listTreeRows(caller, prefix)
  return { personal: rows.personal.map(sizedEntry), shared: rows.shared.map(sizedEntry) }
}

/** The tree's rows, by path, unsized (resources/page.ts sizes one page of them). */
export async function listTreeRows(
  caller: Caller,
  prefix?: unknown,
): Promise<Record<ResourceScope, TreeRow[]>> {
  const start = parsePrefix(prefix)
  const [jobs, personalFiles, sharedFiles] = await Promise.all([
    listJobBriefs(caller, { scope: 'all' }),
    selectResourceSummaries(ownerFor(caller, 'personal'), start),
    selectResourceSummaries(ownerFor(caller, 'shared'), start),
  ])
  const tree = (scope: ResourceScope, files: typeof personalFiles): TreeRow[] => {
    const jobRows = jobs
      .filter((job) => job.scope === scope && jobPath(job.name).startsWith(start))
      .map(jobRow)
    const fileRows = files.map((file) => ({
      entry: {
        path: file.path,
        kind: 'file' as const,
        size: file.size,
        updatedAt: file.updatedAt.toISOString(),
        canEdit: canEditFile(caller, { scope, path: file.path, createdBy: file.createdBy }),
      },
    }))
    return [...jobRows, ...fileRows].sort((a, b) => a.entry.path.localeCompare(b.entry.path))
  }
  return { personal: tree('personal', personalFiles), shared: tree('shared', sharedFiles) }
}

/** One file of the caller's personal workspace or their organisation's shared one; 404 if none. */
export async function readResource(
  caller: Caller,
  scope: ResourceScope,
  path: unknown,
): Promise<ResourceView> {
  const target = parseResourcePath(path)
  if (target.kind === 'file') return readFile(caller, scope, target.path)
  const { text, job } = await readJobFile(caller, scope, target.name)
  return jobResource(scope, text, job)
}

/**
 * Creates or replaces a file. A job file creates or replaces its job through the jobs service
 * (256 KiB limit, 403 on a shared job the caller may not edit). With `ifMatch`, the file must exist
 * at that version. `job` is set for job files.
 */
export async function writeResource(
  caller: Caller,
  scope: ResourceScope,
  path: unknown,
  text: string,
  opts: { ifMatch?: number } = {},
): Promise<{ resource: ResourceView; created: boolean; job?: JobView }> {
  const target = parseResourcePath(path)
  if (target.kind === 'file') return writeFile(caller, scope, target.path, text, opts)
  const { job, created } = await writeJobFile(caller, scope, target.name, text, opts)
  const rendered = renderJobFile(toJobFileView(job))
  return { resource: jobResource(scope, rendered, job), created, job }
}

/** Deletes a file; deleting a job file deletes its job (same rules as deleting the job). */
export async function deleteResource(
  caller: Caller,
  scope: ResourceScope,
  path: unknown,
  opts: { ifMatch?: number } = {},
): Promise<void> {
  const target = parseResourcePath(path)
  if (target.kind === 'file') return deleteFile(caller, scope, target.path, opts)
  return deleteJobFile(caller, scope, target.name, opts)
}
