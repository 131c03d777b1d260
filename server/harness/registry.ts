/**
 * The harnesses this app can hand a run to, by id. The job field's values (`builtin` plus these
 * ids) are listed in server/jobs/field-schemas.ts (`HARNESS_IDS`), which a test keeps equal to this
 * registry. To add one: a file like claude-code.ts, a line here, its id there.
 */
import type { HarnessAdapter } from './adapter.ts'
import { claudeCode } from './claude-code.ts'
import { openCode } from './opencode.ts'

const adapters = new Map<string, HarnessAdapter>([
  [claudeCode.id, claudeCode],
  [openCode.id, openCode],
])

/** The adapter for `id`, or undefined (`builtin` is not an adapter: it is the agent loop). */
export function harnessAdapter(id: string): HarnessAdapter | undefined {
  return adapters.get(id)
}

/** Every registered adapter, in registration order. */
export function harnessAdapters(): HarnessAdapter[] {
  return [...adapters.values()]
}
