/**
 * The process around the server: start-up, the background services, and a clean shutdown on
 * SIGTERM/SIGINT. Both entries call it with the routes they have: `main.ts` (production, the
 * React Router build bundled with it) and `dev.ts` (development, routes through Vite).
 */
// First, before any module reads the environment: loads .env and exits on a bad environment.
import { loadedEnvFile } from './lib/load-env.ts'
import { createAgentExecutor } from './agent/run-executor.ts'
import { readModelChoice } from './agent/model.ts'
import { retiredModelWarning } from './agent/retired-models.ts'
import { env } from './env.ts'
import { startServer, type RouteSource, type RunningServer } from './http/server.ts'
import { logger } from './lib/logger.ts'
import { logUnhandledRejections } from './lib/unhandled-rejections.ts'
import { reportSandboxIsolation } from './sandbox/index.ts'
import { startScheduler } from './scheduler/scheduler.ts'
import { integrationHooks } from './integrations/run-delivery.ts'
import { startContainerReaper } from './sandbox/docker-reaper.ts'
import { dockerState } from './environments/providers/providers-docker.ts'

/**
 * The scheduler runs in this process, after migrations; SCHEDULER_ENABLED=false makes a web-only
 * instance. Its runs execute with the agent, passed in here so the scheduler never imports it.
 */
async function startBackground() {
  const config = env()
  // Says at start-up what agent code is isolated by, and warns when it is less than strong.
  await reportSandboxIsolation(logger)
  // Containers a previous server left running past their time (it died mid-command) are removed,
  // where a Docker engine answers; not awaited, as the first sweep may wait on the engine.
  void startContainerReaper(dockerState)
  if (!config.SCHEDULER_ENABLED) {
    logger.warn('SCHEDULER_ENABLED=false: this instance serves pages and the API but fires no jobs')
    return []
  }
  // Results go to the jobs' notify targets and alerts out after each run; the dead-man check ticks beside.
  const { afterSettle, watchers } = integrationHooks()
  return [await startScheduler({ executor: createAgentExecutor(), afterSettle, watchers })]
}

/** Starts the server on `routes` and owns the process until a signal ends it. */
export async function runServerProcess(routes: RouteSource): Promise<void> {
  // Checked by load-env.ts already, so this cannot throw.
  const config = env()
  if (loadedEnvFile) logger.info(`read environment from ${loadedEnvFile}`)
  const retired = retiredModelWarning(readModelChoice(config))
  if (retired) logger.warn(retired)
  logger.debug(
    {
      model: config.AGENT_MODEL,
      database: config.DATABASE_URL ? 'postgres' : 'pglite',
      scheduler: config.SCHEDULER_ENABLED,
    },
    'configuration',
  )

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
  // A tenant's request that trips a missed rejection must not end the process for everyone.
  logUnhandledRejections(logger)

  try {
    server = await startServer(config, routes, startBackground)
    if (stopping) await server.close()
  } catch (err) {
    logger.fatal({ err }, 'start-up failed')
    console.error(`Clockwork could not start: ${(err as Error).message}`)
    process.exit(1)
  }
}
