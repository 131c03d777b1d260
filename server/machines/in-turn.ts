/**
 * Registrations of one person's machines, taken one at a time on this instance. Each is a
 * transaction that waits on the person's advisory lock (store.ts `markConnected`) while holding a
 * connection of the server's database pool, so registrations sent together (5,000 from one
 * socket, or one from each of many sockets: a token opens as many as its holder likes) held every
 * connection of the pool while they waited on each other, and another person's page waited about
 * half a minute for the database (decision 0419). Queued here, one person's registrations hold at
 * most one connection of the pool at a time; the lock still orders them across instances.
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
