/** The one call service.ts makes on use: build or restore the tree, then project (lifecycle.ts). */
import { type Caller, isOrgAdmin } from '../../access/caller.ts'
import type { BootstrapWatcher } from './bootstrap-watch.ts'
import type { EnvironmentDefinition } from '../definition/definition.ts'
import type { ExecOptions } from '../exec/exec.ts'
import type { FileContext } from '../files/files-schema.ts'
import { ensureReady } from './lifecycle.ts'
import { approvedSkillContent } from '../skills/skills.ts'
import type { EnvironmentRow } from '../store.ts'

export async function prepareTree(
  caller: Caller,
  row: EnvironmentRow,
  definition: EnvironmentDefinition,
  files: FileContext & { owner: { uid: number; gid: number } },
  secrets: Record<string, string>,
  execOptions: ExecOptions,
  onProgress?: BootstrapWatcher,
): Promise<void> {
  await ensureReady({
    row,
    definition,
    files,
    secrets,
    redact: files.redact ?? ((text) => text),
    isAdmin: isOrgAdmin(caller),
    approvedSkill: (name) => approvedSkillContent(caller.orgId, name),
    execOptions,
    onProgress,
  })
}
