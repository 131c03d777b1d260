/**
 * Removes containers past their deadline. The server stops each container it starts when the
 * command's time is up, and killing the docker CLI does not stop a container (only the daemon
 * does): a server that dies mid-command (a crash, a deploy, an out-of-memory kill) left its
 * containers running for ever, a member's `sleep infinity` included. Every container carries its
 * deadline as a label (containerRunArgs), so any instance sharing the engine can take the overdue
 * ones, whoever started them, at start-up and every minute after.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { logger } from '../lib/logger.ts'
import { DEADLINE_LABEL, dockerClientEnv } from './docker.ts'

const run = promisify(execFile)
const EVERY_MS = 60_000

/**
 * Removes the running containers whose deadline is before `now`; answers their names. `namePart`
 * narrows the sweep to names containing it: a test sweeping as of a later moment must not take
 * the containers of other tests sharing its engine.
 */
export async function reapOverdueContainers(
  bin = 'docker',
  now = Date.now(),
  namePart?: string,
): Promise<string[]> {
  const byName = namePart ? ['--filter', `name=${namePart}`] : []
  const { stdout } = await run(
    bin,
    [
      'ps',
      '--filter',
      `label=${DEADLINE_LABEL}`,
      ...byName,
      '--format',
      `{{.Names}}\t{{.Label "${DEADLINE_LABEL}"}}`,
    ],
    { env: dockerClientEnv(), timeout: 10_000 },
  )
  const overdue = stdout
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([name, deadline]) => name && Number(deadline) * 1000 < now)
    .map(([name]) => name!)
  if (overdue.length === 0) return []
  await run(bin, ['rm', '--force', ...overdue], { env: dockerClientEnv(), timeout: 30_000 })
  logger.warn(
    { containers: overdue },
    'removed containers past their deadline (their server stopped mid-command)',
  )
  return overdue
}

/**
 * Reaps now and every minute where a Docker engine answers; resolves with the stop once the first
 * sweep is done. `engine` is the process's answer at start (dockerState), so a server without an
 * engine runs no docker command every minute. An engine that starts later is used by environments'
 * commands (dockerState asks again) and swept by the next server start, which sweeps first: what
 * is left to reap is what a server that died left behind.
 */
export async function startContainerReaper(
  engine: (bin: string) => Promise<{ ok: boolean }>,
  bin = 'docker',
): Promise<() => void> {
  if (!(await engine(bin)).ok) return () => {}
  const reap = () => reapOverdueContainers(bin).catch(() => {})
  const timer = setInterval(() => void reap(), EVERY_MS)
  timer.unref()
  await reap()
  return () => clearInterval(timer)
}
