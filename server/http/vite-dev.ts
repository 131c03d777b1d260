/**
 * The development server's Vite: created before any server module loads, so that the server
 * itself (start.ts and everything under it) and the routes are loaded by this one Vite, in one
 * module graph. Imports nothing of the server's own: whatever imported a server module here would
 * hold a second copy of it.
 */
import { createServer, type Server } from 'node:http'
import type { ViteDevServer } from 'vite'

export type DevVite = { vite: ViteDevServer; httpServer: Server }

/** An HTTP server without a handler yet (startServer attaches the app) and Vite with HMR on it. */
export async function createDevVite(): Promise<DevVite> {
  const httpServer = createServer()
  const vite = await withoutForeignExitHandlers(() =>
    withoutKnownViteNoise(() =>
      import('vite').then(({ createServer: createVite }) =>
        createVite({ server: { middlewareMode: true, hmr: { server: httpServer } } }),
      ),
    ),
  )
  return { vite, httpServer }
}

/**
 * React Router 7.18's internal Vite servers pass `envFile: false`, which Vite 8 deprecates with a
 * warning on every start that no setting of ours can silence (it is theirs). Only that exact line
 * is dropped, and only while Vite starts.
 */
async function withoutKnownViteNoise<T>(start: () => Promise<T>): Promise<T> {
  const warn = console.warn
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('The `envFile` option is deprecated')) return
    warn(...args)
  }
  try {
    return await start()
  } finally {
    console.warn = warn
  }
}

/**
 * Vite servers created while loading the React Router plugin exit the process on
 * SIGTERM (with 143) and when stdin ends. This process owns its shutdown, so those
 * handlers are removed again: the grace period for running work must not be cut short.
 */
async function withoutForeignExitHandlers<T>(start: () => Promise<T>): Promise<T> {
  const sigterm = new Set(process.listeners('SIGTERM'))
  const stdinEnd = new Set(process.stdin.listeners('end'))
  try {
    return await start()
  } finally {
    for (const listener of process.listeners('SIGTERM')) {
      if (!sigterm.has(listener)) process.off('SIGTERM', listener as () => void)
    }
    for (const listener of process.stdin.listeners('end')) {
      if (!stdinEnd.has(listener)) process.stdin.off('end', listener as () => void)
    }
  }
}
