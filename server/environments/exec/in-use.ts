/**
 * Which environments have a command running in this process, so that deleting one can refuse
 * while it is busy (decision 0461) rather than pull its folder from under a command. Commands run
 * on the instance holding the folder (others forward there), so this process is the one to ask.
 */
const running = new Map<string, number>()

/** Runs `work` counted as a command in environment `id`. */
export async function whileInUse<T>(id: string, work: () => Promise<T>): Promise<T> {
  running.set(id, (running.get(id) ?? 0) + 1)
  try {
    return await work()
  } finally {
    const left = running.get(id)! - 1
    if (left === 0) running.delete(id)
    else running.set(id, left)
  }
}

/** True while a command runs in environment `id` in this process. */
export const hasRunningCommand = (id: string) => running.has(id)
