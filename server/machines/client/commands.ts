/**
 * Commands run in the client's directory, each in its own process group so a stop or a time-out
 * ends everything it started. Processes outlive a dropped connection: on reconnect the client
 * reports their run ids and the server sends the stops that came due meanwhile.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import type { MachineCalls, OutputParams } from '../protocol.ts'
import { confine } from './confine.ts'
import { deniedBy } from './deny.ts'
import { ClientError } from './errors.ts'
import { gatherOutput, StreamOutput } from './output.ts'

export class Commands {
  private readonly active = new Map<string, Set<ChildProcess>>()
  private readonly stopped = new Set<string>()

  constructor(
    private readonly root: string,
    private readonly deny: string[],
    private readonly log: (line: string) => void,
  ) {}

  activeRuns(): string[] {
    return [...this.active.keys()]
  }

  run(
    { callId, command, cwd, timeoutMs, runId, maxOutputBytes }: MachineCalls['run_command']['params'],
    onOutput: (out: OutputParams) => void,
  ): Promise<MachineCalls['run_command']['result']> {
    const rule = deniedBy(command, this.deny)
    if (rule) throw new ClientError('command_denied', `denied on this machine by "${rule}": ${command}`)
    if (this.stopped.has(runId)) throw new ClientError('command_denied', `run ${runId} was stopped`)
    const dir = confine(this.root, cwd ?? '.')
    const started = Date.now()
    this.log(`run ${runId}: ${command}`)
    const child = spawn('/bin/sh', ['-c', command], {
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const set = this.active.get(runId) ?? new Set()
    set.add(child)
    this.active.set(runId, set)
    const gathered = gatherOutput((stream, text) => onOutput({ callId, stream, text }))
    const out = {
      stdout: new StreamOutput(maxOutputBytes, 'stdout', gathered.push),
      stderr: new StreamOutput(maxOutputBytes, 'stderr', gathered.push),
    }
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream].on('data', (chunk: Buffer) => out[stream].push(chunk))
    }
    let failed = ''
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child)
    }, timeoutMs)
    return new Promise((resolve) => {
      const finish = (exitCode: number | null) => {
        clearTimeout(timer)
        gathered.flush()
        set.delete(child)
        if (set.size === 0) this.active.delete(runId)
        const durationMs = Date.now() - started
        this.log(`run ${runId}: exit ${exitCode ?? 'killed'} after ${durationMs} ms`)
        resolve({
          exitCode,
          stdout: out.stdout.text(),
          stderr: out.stderr.text() + failed,
          durationMs,
          timedOut,
          stopped: this.stopped.has(runId),
          printed: { stdout: out.stdout.printed, stderr: out.stderr.printed },
        })
      }
      child.on('error', (err) => {
        failed = String(err.message)
        finish(127)
      })
      child.on('close', (code) => finish(code))
    })
  }

  /** Ends every command of `runId` and refuses new ones; idempotent. */
  stop(runId: string): { stopped: number } {
    const first = !this.stopped.has(runId)
    this.stopped.add(runId)
    const children = [...(this.active.get(runId) ?? [])]
    for (const child of children) killGroup(child)
    if (first || children.length) this.log(`stop ${runId}: ${children.length} command(s) stopped`)
    return { stopped: children.length }
  }
}

function killGroup(child: ChildProcess) {
  if (child.pid === undefined || child.exitCode !== null) return
  try {
    process.kill(-child.pid, 'SIGTERM')
  } catch {
    return // already gone
  }
  setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // gone
    }
  }, 2_000).unref()
}
