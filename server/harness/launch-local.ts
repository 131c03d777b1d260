/**
 * A harness on this server: in the environment's sandbox, as the sandbox user, under its limits
 * (the environments' executor, exec.ts). Its ways out are the run's endpoint on a Unix socket,
 * relayed by socat from a loopback port of the sandbox's own network namespace (decision 0302),
 * and, when the environment's policy names hosts, the filtering proxy's socket relayed the same way
 * and named by the proxy variables, which judges each connection as it does for `run_command`
 * (decision 0314). The projection goes into a fresh folder inside the environment, removed
 * afterwards.
 */
import { randomBytes } from 'node:crypto'
import { dirname, join, posix } from 'node:path'
import { runCommand } from '../environments/exec/exec.ts'
import { leaseProxy } from '../environments/exec/sandbox-runtime.ts'
import { folderInside, removeEntry, writeInside } from '../environments/exec/inside.ts'
import { execEnvironment, type OpenEnvironment } from '../environments/service.ts'
import { installedCli, quote, type Launcher } from './launcher.ts'
import { serveOnSocket } from './socket.ts'

/** The proxy relay's port on the sandbox's loopback (the runtime's own relays use the same one). */
const PROXY_PORT = 3128

export const launchLocal: Launcher = async ({ adapter, opened, token, timeoutSeconds, signal }) => {
  const cli = installedCli(adapter)
  const socket = await serveOnSocket(token)
  const runName = runFolderName()
  const runDir = join(opened.root, runName)
  // A port of the sandbox's own loopback: nothing else listens in its network namespace.
  const port = loopbackPort()
  // The hosts the policy names, through the proxy (null when it names none: no network at all).
  const proxy = await leaseProxy({
    id: `harness-${token.slice(-12)}`,
    allowedHosts: opened.definition.policy.network.allow,
    port: PROXY_PORT,
  }).catch(async (err: Error) => {
    await socket.close()
    throw new Error(
      `The environment's hosts cannot be reached: the filtering proxy did not start (${err.message})`,
    )
  })
  const relays: [number, string][] = [
    [port, socket.path],
    ...(proxy ? [[PROXY_PORT, proxy.socket] as [number, string]] : []),
  ]
  return {
    baseUrl: `http://127.0.0.1:${port}/${token}`,
    root: opened.root,
    runDir,
    async run(projection, onChunk) {
      await writeProjection(opened, runName, projection.files)
      const line = [
        ...relays.map(
          ([at, path]) =>
            `socat TCP-LISTEN:${at},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${quote(path)} 2>/dev/null &`,
        ),
        // The CLI's first call must find the relays listening.
        ...relays.map(
          ([at]) =>
            `for i in $(seq 200); do (exec 3<>/dev/tcp/127.0.0.1/${at}) 2>/dev/null && break; sleep 0.05; done`,
        ),
        `exec ${[cli, ...projection.args].map(quote).join(' ')}`,
      ].join('\n')
      // The environment's timeoutSeconds bounds one command; a harness run is a whole session of
      // them, bounded by the run's own timeout (the job's timeoutMinutes, cancel, the lease).
      const limits = { ...opened.limits, timeoutSeconds }
      return runCommand(execEnvironment(opened, limits), line, {
        timeoutSeconds,
        program: {
          readOnly: [dirname(cli), socket.dir, ...(proxy ? [proxy.socket] : [])],
          // The proxy's variables leave loopback direct: the run's endpoint is reached as before.
          env: { ...projection.env, ...proxy?.env },
          signal,
          onChunk,
        },
      })
    },
    async cleanup() {
      proxy?.release()
      await socket.close()
      // As the sandbox user, never following a link the harness left (inside.ts).
      await removeEntry(opened.root, runName)
    },
  }
}

/** The run's throw-away folder, directly inside the environment's. */
export const runFolderName = () => `.harness-${randomBytes(6).toString('hex')}`

/** A port for the endpoint relay on the sandbox's (or container's) own loopback; never the proxy's 3128. */
export const loopbackPort = () => 20_000 + (randomBytes(2).readUInt16BE() % 40_000)

/**
 * The projected files, owned by the sandbox user (the harness writes its home and temp files), all
 * inside the run's folder `run` (a name inside the environment's), written with the environments'
 * no-link helpers (inside.ts) like every other path the server touches in a tenant's folder.
 */
export async function writeProjection(
  opened: OpenEnvironment,
  run: string,
  files: { path: string; content: string }[],
) {
  const owner = opened.files.owner
  for (const dir of [run, `${run}/home`, `${run}/tmp`]) await folderInside(opened.root, dir, owner)
  for (const file of files) {
    const rel = posix.normalize(`${run}/${file.path}`)
    if (!rel.startsWith(`${run}/`)) throw new Error(`projection path outside the run folder: ${file.path}`)
    await folderInside(opened.root, posix.dirname(rel), owner)
    await writeInside(opened.root, rel, file.content, owner)
  }
}
