/**
 * A container's processes as this server can read them: its cgroup, found from the pid the engine
 * reports for its first process, for the disk watch's count of deleted files they hold open
 * (held-files.ts). Only an engine on this host, in this PID namespace, gives a pid that means
 * something here; the cgroup must name the container's id, or the pid is taken for another
 * process's and nothing is counted (decision 0516).
 */
import { execFile } from 'node:child_process'
import { dockerClientEnv } from '../../sandbox/docker.ts'
import { groupOfProcess, type TaskGroup } from '../../sandbox/cgroup-group.ts'

const INSPECT_TIMEOUT_MS = 10_000

/** The container's full id and its first process's pid (0 until it runs), or undefined. */
function inspect(bin: string, name: string): Promise<{ id: string; pid: number } | undefined> {
  return new Promise((resolve) => {
    execFile(
      bin,
      ['inspect', '--type', 'container', '--format', '{{.Id}} {{.State.Pid}}', name],
      { env: dockerClientEnv(), timeout: INSPECT_TIMEOUT_MS },
      (err, stdout) => {
        const found = /^([0-9a-f]{64}) (\d+)\s*$/.exec(stdout)
        resolve(err || !found ? undefined : { id: found[1]!, pid: Number(found[2]) })
      },
    )
  })
}

/**
 * Answers the cgroup of container `name` once it runs, asking the engine at each call until then.
 * Once the container runs and its cgroup is not to be found here, it stops asking.
 */
export function containerGroup(bin: string, name: string): () => Promise<TaskGroup | undefined> {
  let found: TaskGroup | undefined
  let notHere = false
  return async () => {
    if (found || notHere) return found
    const container = await inspect(bin, name)
    if (!container || container.pid === 0) return undefined
    found = await groupOfProcess(container.pid, container.id)
    notHere = !found
    return found
  }
}
