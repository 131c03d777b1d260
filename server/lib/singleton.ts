/**
 * One value per process for handles that must outlive a module reload. The server is one module
 * graph (production bundles it with the routes; development loads both through one Vite), so
 * ordinary module state is already one per process. But Vite re-evaluates an edited module in
 * development, and the test runner imports server modules beside the server it starts: an open
 * database, the sockets of connected machines or the running chat turns must not be replaced by
 * an empty copy then. Use it for such handles only, never to paper over a second copy of the code.
 */
export function singleton<T>(name: string, create: () => T): T {
  const store = globalThis as unknown as { __clockwork?: Map<string, unknown> }
  store.__clockwork ??= new Map()
  if (!store.__clockwork.has(name)) store.__clockwork.set(name, create())
  return store.__clockwork.get(name) as T
}
