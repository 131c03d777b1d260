/**
 * Entry point: `npm run dev` and `npm start`. Starts the server, then the
 * background services, and shuts both down cleanly on SIGTERM/SIGINT.
 */
import { env, type Env } from './env.ts'
import { startServer, type RunningServer } from './http/server.ts'
import { logger } from './lib/logger.ts'

let config: Env
try {
  config = env()
} catch (err) {
  console.error((err as Error).message)
  process.exit(1)
}

let server: RunningServer | undefined
let stopping = false

async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  logger.info({ signal }, 'shutting down')
  // A hard ceiling, in case something hangs: the platform kills us anyway.
  const ceiling = setTimeout(() => process.exit(1), (config.SHUTDOWN_GRACE_SECONDS + 5) * 1000)
  ceiling.unref()
  await server?.close()
  process.exit(0)
}
// Registered before start-up, so a signal that arrives while starting is handled too.
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))

try {
  server = await startServer(config)
  if (stopping) await server.close()
} catch (err) {
  logger.fatal({ err }, 'start-up failed')
  console.error(`Clockwork could not start: ${(err as Error).message}`)
  process.exit(1)
}
