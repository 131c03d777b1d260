/**
 * Scheduler instances as separate processes (bench/instance.ts), as separate app servers would
 * be: one event loop each. They report each fire on stdout as a JSON line.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'

/** One fire, as an instance saw it: ms since the epoch (same machine, same clock). */
export type Fire = {
  system: string
  instance: string
  /** The slot (scheduled time). */
  slot: number
  /** When the fire was recorded in the database (run row / job row created). */
  recorded: number
  /** When the handler / executor started. */
  started: number
}

export type Instance = { name: string; child: ChildProcess; ready: Promise<void> }

export class Fleet {
  readonly fires: Fire[] = []
  private instances: Instance[] = []

  /** Starts one instance of `system` with BENCH_* settings; resolves once it says it is ready. */
  async start(system: 'clockwork' | 'pgboss' | 'graphile', name: string, env: Record<string, string>) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/instance.ts'], {
      env: {
        ...process.env,
        LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
        // Production refuses to start without one; the bench instances never sign anyone in.
        BETTER_AUTH_SECRET: 'scheduler-bench-only-not-a-secret-0123456789',
        BENCH_SYSTEM: system,
        BENCH_INSTANCE: name,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let markReady = () => {}
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve
      child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)))
    })
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return
      const event = JSON.parse(line) as { type: string } & Fire
      if (event.type === 'ready') markReady()
      if (event.type === 'fire') this.fires.push(event)
    })
    const instance = { name, child, ready }
    this.instances.push(instance)
    return instance
  }

  async ready(): Promise<void> {
    await Promise.all(this.instances.map((i) => i.ready))
  }

  /** SIGTERM to every instance; waits for them to exit. */
  async stop(): Promise<void> {
    await Promise.all(
      this.instances.map(async ({ child }) => {
        if (child.exitCode !== null || child.signalCode !== null) return
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
        await once(child, 'exit')
        clearTimeout(timer)
      }),
    )
    this.instances = []
  }
}
