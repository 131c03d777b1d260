/**
 * A harness in a `provider: docker` environment: the CLI runs in the environment's own container
 * (providers-docker.ts: its image, `--network none`, the folder at /workspace, the sandbox uid, a
 * read-only root, no capabilities, the definition's limits, secrets by name), with its install
 * folder mounted read-only. Its only way out is the run's endpoint: the Unix socket (socket.ts) is
 * bind-mounted in and the container's relay (docker-relay.ts, run by the image's `node`) listens on
 * a loopback port for it, beside the filtering proxy's port when the policy names hosts (decision
 * 0308). The model key never enters: the CLI holds the run's token only. The projection goes into a
 * fresh folder inside the environment, removed afterwards with the container.
 */
import { randomBytes } from 'node:crypto'
import { basename, dirname, posix } from 'node:path'
import { removeEntry } from '../environments/exec/inside.ts'
import { execEnvironment } from '../environments/service.ts'
import { DOCKER_WORKDIR, dockerExec, removeContainer } from '../environments/providers/providers-docker.ts'
import { loopbackPort, runFolderName, writeProjection } from './launch-local.ts'
import { installedCli, type Launcher } from './launcher.ts'
import { serveOnSocket } from './socket.ts'

/** Where the CLI's install folder and the run's endpoint socket appear in the container. */
export const CLI_DIR = '/opt/clockwork-harness'
export const ENDPOINT_SOCKET = '/run/clockwork-endpoint/endpoint.sock'

export const launchDocker: Launcher = async ({ adapter, opened, token, timeoutSeconds, signal, stopKey }) => {
  const cli = installedCli(adapter)
  const socket = await serveOnSocket(token)
  const runName = runFolderName()
  const name = `clockwork-harness-${randomBytes(8).toString('hex')}`
  const port = loopbackPort()
  return {
    baseUrl: `http://127.0.0.1:${port}/${token}`,
    root: DOCKER_WORKDIR,
    runDir: posix.join(DOCKER_WORKDIR, runName),
    async run(projection, onChunk) {
      await writeProjection(opened, runName, projection.files)
      // The environment's timeoutSeconds bounds one command; a harness run is bounded by the run's own.
      const limits = { ...opened.limits, timeoutSeconds }
      const result = await dockerExec(execEnvironment(opened, limits), adapter.install.command, {
        timeoutSeconds,
        stopKey,
        container: {
          name,
          argv: [posix.join(CLI_DIR, basename(cli)), ...projection.args],
          readOnly: [{ source: dirname(cli), target: CLI_DIR }],
          sockets: [{ source: socket.path, target: ENDPOINT_SOCKET, port }],
          env: projection.env,
          onChunk,
          signal,
        },
      })
      const missing = /error while loading shared libraries: ([^:\s]+)/.exec(result.stderr)
      if (missing) {
        result.stderr =
          `${adapter.label} cannot start in this server's sandbox image (SANDBOX_DOCKER_IMAGE): it ` +
          `lacks ${missing[1]}, part of the C library the CLI is linked against (node:22-slim has it)`
      }
      return result
    },
    async cleanup() {
      await removeContainer(name)
      await socket.close()
      await removeEntry(opened.root, runName)
    },
  }
}
