/**
 * Which environments have a command running in this process, so that deleting one can refuse
 * while it is busy (decision 0461) rather than pull its folder from under a command, and which
 * are being deleted, so that a command starting meanwhile is refused instead of running in a
 * folder being emptied. Commands run on the instance holding the folder (others forward there,
 * deletes too), so this process is the one to ask.
 */
import { conflict } from '../../lib/errors.ts'

const running = new Map<string, number>()
const deleting = new Set<string>()

/**
 * Runs `work` counted as a command in environment `id`.
 * @throws HttpError 409 while that environment is being deleted, `work` not run
 */
export async function whileInUse<T>(id: string, work: () => Promise<T>): Promise<T> {
  if (deleting.has(id)) throw conflict('This environment is being deleted', 'environment')
  running.set(id, (running.get(id) ?? 0) + 1)
  try {
    return await work()
  } finally {
    const left = running.get(id)! - 1
    if (left === 0) running.delete(id)
    else running.set(id, left)
  }
}

/**
 * Runs `work` (removing environment `id`) marked as its delete, unless a command runs in it or
 * another delete has it: then false, `work` not run. The check and the mark are one step (no
 * await between them), so of two deletes at once one does it, and commands wait for neither.
 */
export async function whileDeleting(id: string, work: () => Promise<void>): Promise<boolean> {
  if (running.has(id) || deleting.has(id)) return false
  deleting.add(id)
  try {
    await work()
    return true
  } finally {
    deleting.delete(id)
  }
}
