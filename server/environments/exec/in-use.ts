/**
 * Which environments have a command or a file operation running in this process (decisions 0461,
 * 0472), so that deleting one can refuse while it is busy rather than pull its folder from under
 * them, and which are being deleted, so that work starting meanwhile is refused instead of acting
 * in a folder being emptied. Both run on the instance holding the folder (others forward there,
 * deletes too), so this process is the one to ask.
 */
import { conflict } from '../../lib/errors.ts'

const running = new Map<string, number>()
const deleting = new Set<string>()

/**
 * Runs `work` counted as in use in environment `id` (a command, a file operation, a folder's setup).
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
 * Runs `work` (removing environment `id`) marked as its delete, unless work is in use in it or
 * another delete has it: then false, `work` not run. The check and the mark are one step (no
 * await between them), so of two deletes at once one does it, and in-use work waits for neither.
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
