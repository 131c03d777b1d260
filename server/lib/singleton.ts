/**
 * One value per process. In development Vite loads route modules apart from the
 * server entry, and in production the server build bundles its own copy of
 * server/; keeping shared handles (database, scheduler signal) on globalThis
 * means both copies see the same one.
 */
export function singleton<T>(name: string, create: () => T): T {
  const store = globalThis as unknown as { __clockwork?: Map<string, unknown> }
  store.__clockwork ??= new Map()
  if (!store.__clockwork.has(name)) store.__clockwork.set(name, create())
  return store.__clockwork.get(name) as T
}
