/**
 * A harness on this server: in the environment's sandbox, as the sandbox user, under its limits
 * (the environments' executor, exec.ts). Its only way out is the run's endpoint on a Unix socket,
 * relayed by socat from a loopback port of the sandbox's own network namespace (decision 0302).
 * The projection goes into a fresh folder inside the environment, removed afterwards.
 */
import { randomBytes } from 'node:crypto'
import { chown, mkdir, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { runCommand } from '../environments/exec/exec.ts'
import type { OpenEnvironment } from '../environments/service.ts'
import type { Launcher } from './launcher.ts'
import { quote } from './launcher.ts'
import { serveOnSocket } from './socket.ts'

export const launchLocal: Launcher = async ({ adapter, opened, token, timeoutSeconds, signal }) => {
  const cli = adapter.locate()
  if (!cli) {
    throw new Error(
      `${adapter.label} is not installed on this server: run \`npm run harness:install ${adapter.id}\`` +
        ` or set ${adapter.install.pathVariable}`,
    )
  }
  const socket = await serveOnSocket()
  const runDir = join(opened.root, `.harness-${randomBytes(6).toString('hex')}`)
  // A port of the sandbox's own loopback: nothing else listens in its network namespace.
  const port = 20_000 + (randomBytes(2).readUInt16BE() % 40_000)
  return {
    baseUrl: `http://127.0.0.1:${port}/${token}`,
    runDir,
    async run(projection, onChunk) {
      await writeProjection(opened, runDir, projection.files)
      const line = [
        `socat TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${quote(socket.path)} 2>/dev/null &`,
        // The CLI's first call must find the relay listening.
        `for i in $(seq 200); do (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.05; done`,
        `exec ${[cli, ...projection.args].map(quote).join(' ')}`,
      ].join('\n')
      return runCommand({ root: opened.root, secrets: opened.secrets, limits: opened.limits }, line, {
        timeoutSeconds,
        program: { readOnly: [dirname(cli), socket.dir], env: projection.env, signal, onChunk },
      })
    },
    async cleanup() {
      await socket.close()
      await rm(runDir, { recursive: true, force: true })
    },
  }
}

/**
 * The projected files, owned by the sandbox user (the harness writes its home and temp files), all
 * inside the fresh run folder: nothing the environment's commands planted can redirect a write.
 */
async function writeProjection(
  opened: OpenEnvironment,
  runDir: string,
  files: { path: string; content: string }[],
) {
  const owner = opened.files.owner
  const own = async (path: string) => {
    if (owner) await chown(path, owner.uid, owner.gid)
  }
  for (const dir of [runDir, join(runDir, 'home'), join(runDir, 'tmp')]) {
    await mkdir(dir, { recursive: true })
    await own(dir)
  }
  for (const file of files) {
    const path = resolve(runDir, file.path)
    if (!path.startsWith(`${runDir}/`))
      throw new Error(`projection path outside the run folder: ${file.path}`)
    const parent = dirname(path)
    await mkdir(parent, { recursive: true })
    for (let dir = parent; dir.startsWith(`${runDir}/`); dir = dirname(dir)) await own(dir)
    await writeFile(path, file.content, { mode: 0o600 })
    await own(path)
  }
}
