/** The one call service.ts makes on use: build or restore the tree, then project (lifecycle.ts). */
import { type Caller, isOrgAdmin } from '../../access/caller.ts'
import type { BootstrapWatcher } from './bootstrap-watch.ts'
import type { EnvironmentDefinition } from '../definition/definition.ts'
import type { ExecLimits, ExecOptions } from '../exec/exec.ts'
import type { OrgDiskShare } from '../files/disk-watch.ts'
import type { FileContext } from '../files/files-schema.ts'
import { ensureReady } from './lifecycle.ts'
import type { CommandGate } from './setup-shell.ts'
import { approvedSkillContent } from '../skills/skills.ts'
import type { EnvironmentRow } from '../store.ts'

export type TreeInput = {
  files: FileContext & { owner: { uid: number; gid: number } }
  secrets: Record<string, string>
  execOptions: ExecOptions
  /** The gate and limits of every command: setup's steps pass them like run_command's. */
  gate: CommandGate
  limits: ExecLimits
  /** Where the folder's size is shared with its organisation's other environments while a build grows it. */
  orgDisk?: OrgDiskShare
  onProgress?: BootstrapWatcher
}

export async function prepareTree(
  caller: Caller,
  row: EnvironmentRow,
  definition: EnvironmentDefinition,
  how: TreeInput,
): Promise<void> {
  await ensureReady({
    ...how,
    row,
    definition,
    redact: how.files.redact ?? ((text) => text),
    isAdmin: isOrgAdmin(caller),
    approvedSkill: (name) => approvedSkillContent(caller.orgId, name),
  })
}
