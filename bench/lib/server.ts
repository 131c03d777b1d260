/**
 * The production server as the web benchmark drives it: `node build/server/index.js` (what the
 * Dockerfile and systemd unit run) in a child process, with its RSS read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

export type BenchServer = {
  baseUrl: string
  pid: number
  child: ChildProcess
  /** Milliseconds from spawn to the first healthy /health answer. */
  bootMs: number
  /** Resident set size of the server process, in MiB. */
  rssMb(): number
  /** CPU time the server process has used so far, in ms. */
  cpuMs(): number
  stop(): Promise<void>
}

export async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  return typeof address === 'object' && address ? address.port : 0
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN)
  return kb / 1024
}

/** CPU time (user + system) the process has used so far, in milliseconds (from /proc). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name (which may hold spaces) start at ")"; utime and stime are 14, 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
}
/** USER_HZ: 100 on every Linux this runs on (`getconf CLK_TCK`). */
const CLOCK_TICKS = 100

export async function startBenchServer(options: {
  nodeFlags: string[]
  /** Extra environment; `undefined` removes an inherited variable (e.g. DATABASE_URL for PGlite). */
  env: Record<string, string | undefined>
  /** Turns the node command into `sh` arguments that start it somewhere else (a cgroup). */
  wrap?: (command: string[]) => string[]
}): Promise<BenchServer> {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const started = Date.now()
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: baseUrl,
    BETTER_AUTH_SECRET: 'bench-web-secret-bench-web-secret-0123',
    AUTH_RATE_LIMIT: 'false',
    // The large seed is 1,000 enabled jobs in one organisation (the default quota is 200).
    ORG_MAX_ENABLED_JOBS: '10000',
    LOG_LEVEL: 'warn',
    ...options.env,
  }
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key]
  const command = [process.execPath, ...options.nodeFlags, 'build/server/index.js']
  const [file, ...argv] = options.wrap ? ['sh', ...options.wrap(command)] : command
  const child = spawn(file!, argv, {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} during start-up`)
    if (Date.now() > deadline) throw new Error('server did not become healthy within 120 s')
    const ok = await fetch(`${baseUrl}/_agent-native/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) break
    await new Promise((r) => setTimeout(r, 50))
  }
  const bootMs = Date.now() - started
  const pid = child.pid!
  return {
    baseUrl,
    pid,
    child,
    bootMs,
    rssMb: () => rssMb(pid),
    cpuMs: () => cpuMs(pid),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      await once(child, 'exit')
    },
  }
}
