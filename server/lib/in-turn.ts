/**
 * Work that takes turns in this process: each piece queued under a key starts once every earlier
 * piece under that key has settled. Callers use it in front of a database lock so that pieces
 * waiting on the same lock hold at most one connection of the pool between them: a burst of
 * waiters, each holding a connection in a transaction, once held every connection of the pool
 * while they waited on each other (decision 0419).
 */
const queues = new Map<string, Promise<unknown>>()

/** Runs `work` once every earlier piece of work queued under `key` has settled. */
export function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve()
  const result = previous.then(work, work)
  const settled = result.then(
    () => {},
    () => {},
  )
  queues.set(key, settled)
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key)
  })
  return result
}
