/**
 * Runs one process in its own process group with a deadline: SIGTERM to the whole group at the
 * deadline, SIGKILL two seconds later if anything is left. Killing only the direct child would
 * leave grandchildren (bwrap's init, a shell's children) running.
 */
import { spawn } from 'node:child_process'
import { CappedOutput, DEFAULT_OUTPUT_LIMIT } from './output.ts'
import type { SandboxRunResult } from './adapter.ts'

export const KILL_GRACE_MS = 2_000

export type RunProcessOptions = {
  env: Record<string, string>
  cwd?: string
  timeoutMs: number
  outputLimit?: number
}

export function runProcess(
  command: string,
  args: string[],
  options: RunProcessOptions,
): Promise<SandboxRunResult> {
  const stdout = new CappedOutput(options.outputLimit ?? DEFAULT_OUTPUT_LIMIT)
  const stderr = new CappedOutput(options.outputLimit ?? DEFAULT_OUTPUT_LIMIT)
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env,
      cwd: options.cwd,
      // detached = a new process group led by the child, so we can signal the whole group.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    stdout.drain(child.stdout)
    stderr.drain(child.stderr)
    let timedOut = false
    let killTimer: NodeJS.Timeout | undefined
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal)
      } catch {
        // Already gone.
      }
    }
    const deadline = setTimeout(() => {
      timedOut = true
      signalGroup('SIGTERM')
      killTimer = setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS)
    }, options.timeoutMs)
    child.on('error', (err) => {
      clearTimeout(deadline)
      clearTimeout(killTimer)
      reject(err)
    })
    child.on('close', (code) => {
      clearTimeout(deadline)
      clearTimeout(killTimer)
      // Anything the child left behind in its group goes with it.
      signalGroup('SIGKILL')
      resolve({
        stdout: stdout.toString(),
        stderr: stderr.toString(),
        exitCode: timedOut ? null : code,
        timedOut,
      })
    })
  })
}
