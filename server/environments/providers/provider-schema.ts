/** The contract every environment provider implements (see providers.ts). */
import type { ExecEnvironment, ExecResult } from '../exec/exec-schema.ts'
import type { ExecOptions } from '../exec/exec.ts'
import type { listDirectory, SearchResult } from '../files/files-list.ts'
import type {
  EditFileInput,
  ListDirectoryInput,
  ReadFileInput,
  ReadFileResult,
  SearchFilesInput,
  WriteFileInput,
  WriteFileResult,
} from '../files/files.ts'

/** Where an environment's commands and files live. */
export type ProviderTarget =
  { kind: 'local' } | { kind: 'docker' } | { kind: 'machine'; ownerId: string; machineId: string }

/** local and docker keep the folder on this server's disk (placed, watched, forwarded); a machine does not. */
export const folderHere = (target: ProviderTarget) => target.kind !== 'machine'

export type ListResult = Awaited<ReturnType<typeof listDirectory>>

/** The six operations, bound to one opened environment. */
export type EnvironmentProvider = {
  /** Runs a command line the policy already allowed. `stopKey` is what a cancel stops it by. */
  exec(env: ExecEnvironment, command: string, opts: ExecOptions & { stopKey: string }): Promise<ExecResult>
  writeFile(input: WriteFileInput): Promise<WriteFileResult>
  readFile(input: ReadFileInput): Promise<ReadFileResult>
  editFile(input: EditFileInput): Promise<WriteFileResult & { line: number }>
  listDirectory(input: ListDirectoryInput): Promise<ListResult>
  searchFiles(input: SearchFilesInput): Promise<SearchResult>
}
