/**
 * The development entry (`npm run dev`). Vite comes first, then loads the server through its own
 * module loader, the same one that loads the routes: every server module exists once in the
 * process, and an error made by one part is recognised by every other. Edits reload through Vite;
 * handles that must outlive a reload (the database, machine sockets) are kept by `singleton()`.
 */
import { createDevVite } from './http/vite-dev.ts'
// A type only: a value import here would load a second copy of the server beside Vite's.
import type { runServerProcess } from './start.ts'

const { vite, httpServer } = await createDevVite()
const start = (await vite.ssrLoadModule('/server/start.ts')) as { runServerProcess: typeof runServerProcess }
await start.runServerProcess({ kind: 'vite', vite, httpServer })
