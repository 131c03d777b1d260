/**
 * A harness on a person's connected machine (`provider: machine:<id>`): the CLI installed there
 * (`$<pathVariable>`, else its command on the PATH) runs in the folder they chose, through the
 * machine client like any command, and reaches the same per-run endpoint at this server's URL
 * (`/_agent-native/harness/runs/<token>/…`). The projection is written through the client into a
 * folder of the run and removed with a command afterwards. The machine returns the output when the
 * command ends, so the transcript arrives then; a stop reaches it as any run's stop does.
 */
import { randomBytes } from 'node:crypto'
import { env } from '../env.ts'
import { providerFor, stopCommands } from '../environments/providers/providers.ts'
import type { Launcher } from './launcher.ts'
import { quote } from './launcher.ts'

export const launchMachine: Launcher = async ({
  adapter,
  opened,
  token,
  timeoutSeconds,
  signal,
  stopKey,
}) => {
  const provider = providerFor(opened.target, opened.files)
  const runDir = `.harness-${randomBytes(6).toString('hex')}`
  const execEnv = { root: opened.root, limits: opened.limits }
  const stop = () => void stopCommands({ runId: stopKey }).catch(() => {})
  const appUrl = env().APP_URL
  if (!appUrl)
    throw new Error(
      'A harness on a connected machine needs APP_URL: the URL the machine reaches this server at',
    )
  return {
    baseUrl: `${appUrl.replace(/\/$/, '')}/_agent-native/harness/runs/${token}`,
    root: opened.root,
    runDir,
    async run(projection, onChunk) {
      for (const file of projection.files)
        await provider.writeFile({ path: `${runDir}/${file.path}`, content: file.content })
      // Paths inside the run folder are relative to the machine's folder: anchor them there.
      const exports = Object.entries(projection.env).map(([name, value]) =>
        value.startsWith(`${runDir}/`) ? `${name}="$PWD"/${quote(value)}` : `${name}=${quote(value)}`,
      )
      const cli = `"\${${adapter.install.pathVariable}:-${adapter.install.command}}"`
      const line = [
        `mkdir -p ${quote(`${runDir}/home`)} ${quote(`${runDir}/tmp`)}`,
        `export ${exports.join(' ')}`,
        `exec ${cli} ${projection.args.map(quote).join(' ')}`,
      ].join('\n')
      signal.addEventListener('abort', stop, { once: true })
      try {
        const result = await provider.exec(execEnv, line, { timeoutSeconds, stopKey })
        onChunk('stdout', Buffer.from(result.stdout))
        return result
      } finally {
        signal.removeEventListener('abort', stop)
      }
    },
    async cleanup() {
      await provider.exec(execEnv, `rm -rf ${quote(runDir)}`, {
        timeoutSeconds: 30,
        stopKey: `${stopKey}-cleanup`,
      })
    },
  }
}
